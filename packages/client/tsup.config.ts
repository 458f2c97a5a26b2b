import { packageBuild } from '../../tsup.base.js';

// Browsers too: nothing of Node's is used, and the build targets what both run.
export default packageBuild({ entry: ['src/index.ts'], platform: 'neutral', target: 'es2022' });
