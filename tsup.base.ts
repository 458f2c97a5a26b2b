import { defineConfig, type Options } from 'tsup';

/**
 * The build every package shares: ESM for Node 20 with types and source maps. Without types
 * when `FULFIL_BUILD_TYPES=off`: what `pnpm start` and `pnpm fulfil` build to run the packages
 * (scripts/build.mjs), in a fraction of the time, since declarations are most of a build.
 */
export function packageBuild(options: Options) {
  const types = process.env.FULFIL_BUILD_TYPES !== 'off';
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
    ...(types ? {} : { dts: false }),
  });
}
