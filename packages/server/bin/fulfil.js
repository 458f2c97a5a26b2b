#!/usr/bin/env node
// The `fulfil` executable. A file of its own rather than dist/cli.js, so that it exists before
// the first build: installing a fresh clone links it into the packages that depend on the server.
import '../dist/cli.js';
