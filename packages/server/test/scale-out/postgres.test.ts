import { skipUnless } from '@fulfil/core/testing';
import { describe, it } from 'vitest';
import { createPostgresCluster, missingClusterTools } from '../faults/postgres-cluster.js';
import { describeScaleOut } from './races.js';
import { postgresDatabase, type TestDatabase } from './support.js';

const url = process.env.FULFIL_TEST_POSTGRES_URL;

/**
 * A database on a cluster of its own where this machine can make one, else a schema of the
 * shared one. The response cache's change stamp is the cluster's snapshot, which any other
 * test's transaction on a shared cluster moves: test "e" counts the cache's hits, and on a busy
 * shared cluster every poll would be a miss.
 */
async function database(shared: string): Promise<TestDatabase> {
  if ((await missingClusterTools()) !== null) return postgresDatabase(shared);
  const cluster = await createPostgresCluster();
  return { ...postgresDatabase(cluster.url), drop: () => cluster.drop() };
}

// Two `fulfil serve` processes on one Postgres database.
if (url) {
  describeScaleOut('scale-out: two server processes on one Postgres database', () => database(url));
} else {
  describe('scale-out: two server processes on one Postgres database', () => {
    it('all of its tests', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
  });
}
