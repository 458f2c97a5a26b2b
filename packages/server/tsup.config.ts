import { defineConfig } from 'tsup';

export default defineConfig({
  // One build (a multi-config array would run in parallel and race on `clean`).
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  // Types only for the library entry; the CLI is an executable.
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  splitting: false,
  tsconfig: 'tsconfig.json',
  // Needed by `bin.fulfil` (dist/cli.js). Harmless in dist/index.js: Node ignores a leading hashbang.
  // Do not put a shebang in src/cli.ts itself, or it would be emitted twice.
  banner: { js: '#!/usr/bin/env node' },
});
