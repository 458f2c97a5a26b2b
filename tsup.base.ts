import { defineConfig, type Options } from 'tsup';

/** The build every package shares: ESM for Node 20 with types and source maps. */
export function packageBuild(options: Options) {
  return defineConfig({
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    dts: true,
    sourcemap: true,
    clean: true,
    splitting: false,
    tsconfig: 'tsconfig.json',
    // Errors only: a build that works has nothing to say (scripts/build.mjs says it is done).
    silent: true,
    ...options,
  });
}
