// `pnpm -s pack:all [--out <dir>] [package…]`: packs every public package of packages/ (built
// first when a source changed) into one folder, as `pnpm publish` would (workspace ranges become
// versions, only each package's `files` go in), then prints the one `npm install` line that
// installs the named packages (default: every one) in an outside project, with each package of
// ours they depend on, from those tarballs. The line goes to stdout, what it means to stderr.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { buildWhenStale, workspacePackages } from './build.mjs';

const USAGE = 'usage: pnpm -s pack:all [--out <dir>] [@fulfil/<name> …]';

function fail(message) {
  process.stderr.write(`pack:all: ${message}\n${USAGE}\n`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({ options: { out: { type: 'string' } }, allowPositionals: true });
} catch (error) {
  fail(error.message);
}
const root = fileURLToPath(new URL('..', import.meta.url));
// Relative to where the user ran pnpm from, not to the root pnpm runs scripts in.
const out = resolve(
  process.env.INIT_CWD ?? process.cwd(),
  parsed.values.out ?? join(root, 'packed'),
);

const packages = workspacePackages(root).filter((pkg) => !pkg.manifest.private);
const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));
const scope = packages[0]?.name.split('/')[0];
const named = parsed.positionals.map((word) => (word.startsWith('@') ? word : `${scope}/${word}`));
for (const name of named) {
  if (!byName.has(name)) {
    fail(`${name} is not one of the packages: ${[...byName.keys()].join(', ')}`);
  }
}

/** The packages to install: those named, and every package of ours they depend on, deeply. */
function withDependencies(names) {
  const wanted = new Set();
  const visit = (name) => {
    if (wanted.has(name)) return;
    wanted.add(name);
    for (const dependency of Object.keys(byName.get(name).manifest.dependencies ?? {})) {
      if (byName.has(dependency)) visit(dependency);
    }
  };
  for (const name of names) visit(name);
  return [...wanted].sort();
}

/** The pnpm running this script (`pnpm pack:all`), else the one on the PATH. */
function pnpm(args, cwd) {
  const running = process.env.npm_execpath;
  const [command, ...first] =
    running && basename(running).startsWith('pnpm') ? [process.execPath, running] : ['pnpm'];
  return promisify(execFile)(command, [...first, ...args], { cwd });
}

/** A word of a POSIX shell: quoted when it holds anything the shell would read. */
function shellWord(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

if (!(await buildWhenStale({ root }))) process.exit(1);
mkdirSync(out, { recursive: true });
/** What a package's tarball is called: `@fulfil/core` 0.1.0 packs as fulfil-core-0.1.0.tgz. */
const fileStem = (pkg) => pkg.name.replace(/^@/, '').replace('/', '-');
// A tarball of an earlier version would be as installable as the new one: none is left.
for (const file of readdirSync(out)) {
  if (packages.some((pkg) => file.startsWith(`${fileStem(pkg)}-`) && file.endsWith('.tgz'))) {
    rmSync(join(out, file));
  }
}
await Promise.all(packages.map((pkg) => pnpm(['pack', '--pack-destination', out], pkg.dir)));
const tarballOf = (name) => {
  const pkg = byName.get(name);
  return join(out, `${fileStem(pkg)}-${pkg.manifest.version}.tgz`);
};

const install = withDependencies(named.length > 0 ? named : [...byName.keys()]);
process.stderr.write(
  `Packed ${packages.length} packages into ${out}.\n` +
    `In your project, this installs ${install.join(', ')} from them:\n`,
);
const line = ['npm', 'install', ...install.map(tarballOf)];
process.stdout.write(`${line.map(shellWord).join(' ')}\n`);
