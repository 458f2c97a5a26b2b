import { main } from './cli/main.js';

// The `fulfil` CLI, run by the executable bin/fulfil.js. Exit code only: the process ends once
// `serve` has closed everything or another command has finished its output.
process.exitCode = await main(process.argv.slice(2));
