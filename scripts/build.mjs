// Builds the packages of packages/, each by its own `build` script, in dependency order and
// several at once (as `pnpm -r build` would), quietly: a line before the build says how long it
// usually takes, a line per package says it is done, and only a build that fails prints its
// output. `pnpm build` runs it; `pnpm pack:all` runs it first when a source changed since the
// last build, and so do `pnpm fulfil …` and `pnpm start`, without types: running the packages
// needs none, and declarations are most of a build's time.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** What a build of every package usually takes, with types and without; said before it starts. */
const USUAL_DURATION = { types: 'usually about a minute', run: 'usually under 20 seconds' };

/** The packages of `root`'s packages/ with a build script, and the ones among them each needs. */
export function workspacePackages(root = ROOT) {
  const dirs = readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, 'packages', entry.name));
  const packages = dirs.map((dir) => ({
    dir,
    manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')),
  }));
  const names = new Set(packages.map(({ manifest }) => manifest.name));
  return packages.map(({ dir, manifest }) => ({
    name: manifest.name,
    dir,
    manifest,
    script: manifest.scripts?.build,
    needs: [
      ...new Set(
        ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']
          .flatMap((field) => Object.keys(manifest[field] ?? {}))
          .filter((name) => names.has(name)),
      ),
    ],
  }));
}

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

/**
 * Whether a package was never built (or, when `types` are wanted, built without them), or a
 * source or manifest changed since the oldest build.
 */
export function buildIsStale({ root = ROOT, types = true } = {}) {
  const packages = workspacePackages(root).filter((pkg) => pkg.script);
  const sources = Math.max(
    ...packages.flatMap(({ dir }) => [
      newestIn(join(dir, 'src')),
      mtime(join(dir, 'package.json')),
    ]),
  );
  const outputs = types ? ['index.js', 'index.d.ts'] : ['index.js'];
  const built = Math.min(
    ...packages.flatMap(({ dir }) => outputs.map((file) => mtime(join(dir, 'dist', file)))),
  );
  // NaN (a package never built) fails the comparison.
  return !(built >= sources);
}

/** Runs one package's build script as `pnpm run` would, its output kept, not shown. */
function runScript(root, pkg, types) {
  const started = performance.now();
  return new Promise((resolve) => {
    const bins = [join(pkg.dir, 'node_modules', '.bin'), join(root, 'node_modules', '.bin')];
    const child = spawn(pkg.script, {
      cwd: pkg.dir,
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PATH: [...bins, process.env.PATH].join(delimiter),
        // Read by tsup.base.ts.
        FULFIL_BUILD_TYPES: types ? 'on' : 'off',
      },
    });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    const done = (ok) =>
      resolve({ ok, seconds: (performance.now() - started) / 1000, output: Buffer.concat(output) });
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      done(false);
    });
    child.on('close', (code) => done(code === 0));
  });
}

/**
 * Builds every package of `root` with a build script (with their types, unless `types` is
 * false), a package only once those it needs are built, at most `concurrency` at once; after a
 * failure, starts no other. Resolves to whether every build succeeded; what it says goes to `out`.
 */
export async function buildPackages({
  root = ROOT,
  out = process.stderr,
  types = true,
  concurrency = Math.min(4, availableParallelism()),
} = {}) {
  const packages = workspacePackages(root).filter((pkg) => pkg.script);
  const width = Math.max(...packages.map((pkg) => pkg.name.length));
  const started = performance.now();
  const count = `${packages.length} package${packages.length === 1 ? '' : 's'}`;
  const what = types ? count : `${count} to run them, without types`;
  const usually = USUAL_DURATION[types ? 'types' : 'run'];
  out.write(`Building ${what} (${usually})…\n`);
  const waiting = new Set(packages);
  const running = new Set();
  const built = new Set();
  const failed = [];
  // Only the packages being built here can hold a build up.
  const building = new Set(packages.map((pkg) => pkg.name));
  const ready = (pkg) => pkg.needs.every((name) => built.has(name) || !building.has(name));
  await new Promise((finish) => {
    const next = () => {
      if (failed.length === 0) {
        for (const pkg of [...waiting]) {
          if (running.size >= concurrency) break;
          if (!ready(pkg)) continue;
          waiting.delete(pkg);
          running.add(pkg);
          runScript(root, pkg, types).then((result) => {
            running.delete(pkg);
            if (result.ok) {
              built.add(pkg.name);
              out.write(`  ${pkg.name.padEnd(width)}  ${result.seconds.toFixed(1)} s\n`);
            } else {
              failed.push(pkg.name);
              out.write(`  ${pkg.name} failed:\n${result.output.toString('utf8')}\n`);
            }
            next();
          });
        }
      }
      if (running.size > 0) return;
      if (failed.length === 0 && waiting.size > 0) {
        failed.push(...[...waiting].map((pkg) => pkg.name));
        out.write(`These packages need each other: ${failed.join(', ')}\n`);
      }
      finish();
    };
    next();
  });
  const seconds = Math.round((performance.now() - started) / 1000);
  out.write(
    failed.length === 0
      ? `Built ${count} in ${seconds} s.\n`
      : `The build failed (${failed.join(', ')}).\n`,
  );
  return failed.length === 0;
}

/** Builds the packages when `buildIsStale`; resolves to false when that build fails. */
export async function buildWhenStale({ root = ROOT, out = process.stderr, types = true } = {}) {
  return !buildIsStale({ root, types }) || (await buildPackages({ root, out, types }));
}

// `node scripts/build.mjs [--no-types] [workspace]`: this repository's packages, or those of
// another workspace.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const types = !args.includes('--no-types');
  const [dir] = args.filter((arg) => arg !== '--no-types');
  const root = dir === undefined ? ROOT : resolve(dir);
  process.exitCode = (await buildPackages({ root, types })) ? 0 : 1;
}
