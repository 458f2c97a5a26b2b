import { packageBuild } from '../../tsup.base.js';

export default packageBuild({
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    // The fixtures alone, without the contract suite's vitest: for any test runner.
    'testing/fixtures': 'src/testing/fixtures.ts',
    // The API's XML text alone: a client bundles it without the engine.
    xml: 'src/wire/xml-text.ts',
  },
});
