/**
 * @fulfil/core/testing — the repository contract suite every storage adapter runs, the courier
 * contract every courier adapter runs, and fixture builders. Needs vitest (a peer dependency of
 * this entry only).
 */
export { type CourierUnderTest, runCourierContract } from './courier-contract.js';
export * as fixtures from './fixtures.js';
export {
  type RepositoryFactory,
  type RepositoryUnderTest,
  runRepositoryContract,
} from './repository-contract.js';
export { seededRandom } from './seeded-random.js';
export { skipTest, skipUnless } from './skip.js';
export { readStoredState, type StoredState } from './stored-state.js';
