import { skipUnless } from '@fulfil/core/testing';
import { describe, it } from 'vitest';
import { postgresDatabase, sqliteDatabase } from '../scale-out/support.js';
import { describeCommittedAtRouting } from './committed-at-routing.js';

// Two `fulfil serve` processes over one SQLite file, then over one Postgres schema.
describeCommittedAtRouting(
  'committed at routing: two server processes on one SQLite file',
  sqliteDatabase,
);

const url = process.env.FULFIL_TEST_POSTGRES_URL;
if (url) {
  describeCommittedAtRouting(
    'committed at routing: two server processes on one Postgres database',
    async () => postgresDatabase(url),
  );
} else {
  describe('committed at routing: two server processes on one Postgres database', () => {
    it('all of its tests', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
  });
}
