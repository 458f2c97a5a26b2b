/**
 * @fulfil/testkit: a whole Fulfil instance for an integration's tests, in one call, plus the
 * fixtures that build its seed and the sales orders it takes in.
 */
/** A clock the test moves itself, for `startFulfil({ clock })`. */
export { ManualClock } from '@fulfil/core';
export * as fixtures from '@fulfil/core/testing/fixtures';
export { type FulfilInstance, type StartOptions, startFulfil } from './start-fulfil.js';
