// `pnpm fulfil …` and `pnpm start`: the fulfil CLI from this repository, built first when any
// source changed since the last build, so scripted calls do not pay for a build each time.
import { buildWhenStale } from './build.mjs';

// The build says what it does on stderr: stdout is the command's own (JSON for data commands).
if (!(await buildWhenStale())) process.exit(1);

await import('../packages/server/dist/cli.js');
