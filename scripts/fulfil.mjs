// `pnpm fulfil …` and `pnpm start`: the fulfil CLI from this repository, built first when any
// source changed since the last build, so scripted calls do not pay for a build each time.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const packages = readdirSync(join(root, 'packages'));

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Number.NaN;
  }
}

function newestIn(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : mtime(path));
  }
  return newest;
}

const sources = Math.max(
  ...packages.flatMap((name) => [
    newestIn(join(root, 'packages', name, 'src')),
    mtime(join(root, 'packages', name, 'package.json')),
  ]),
);
const built = Math.min(
  ...packages.map((name) => mtime(join(root, 'packages', name, 'dist', 'index.js'))),
);

// NaN (a package never built) fails the comparison, so it builds too.
if (!(built >= sources)) {
  process.stderr.write('fulfil: building the packages…\n');
  const pnpm = process.platform === 'win32' ? 'pnpm.cmd' : 'pnpm';
  // The build's output goes to stderr: stdout is the command's own (JSON for data commands).
  execFileSync(pnpm, ['-s', 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
}

await import('../packages/server/dist/cli.js');
