// `pnpm fulfil …` and `pnpm start`: the fulfil CLI from this repository, built first when any
// source changed since the last build, so scripted calls do not pay for a build each time.
import { readFileSync } from 'node:fs';
import { buildWhenStale } from './build.mjs';

// Running needs no types. The build says what it does on stderr: stdout is the command's own
// (JSON for data commands).
if (!(await buildWhenStale({ types: false }))) process.exit(1);

// The commands the CLI prints for the user to run next run as printed, from the repository, on
// a machine with only Node and npm: through the pnpm the repository pins, as the README does.
const { packageManager } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
);
process.env.FULFIL_CLI ??= `npx -y ${packageManager} -s fulfil`;

await import('../packages/server/dist/cli.js');
