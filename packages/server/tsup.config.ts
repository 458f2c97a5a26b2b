import { packageBuild } from '../../tsup.base.js';

export default packageBuild({
  // One build (a multi-config array would run in parallel and race on `clean`).
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  // Types only for the library entry; the CLI is an executable.
  dts: { entry: { index: 'src/index.ts' } },
});
