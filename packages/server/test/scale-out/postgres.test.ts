import { skipUnless } from '@fulfil/core/testing';
import { describe, it } from 'vitest';
import { describeScaleOut } from './races.js';
import { postgresDatabase } from './support.js';

const url = process.env.FULFIL_TEST_POSTGRES_URL;

// Two `fulfil serve` processes on one Postgres database, in a schema of their own (dropped after).
if (url) {
  describeScaleOut('scale-out: two server processes on one Postgres database', async () =>
    postgresDatabase(url),
  );
} else {
  describe('scale-out: two server processes on one Postgres database', () => {
    it('all of its tests', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
  });
}
