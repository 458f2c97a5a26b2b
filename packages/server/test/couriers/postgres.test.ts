import { randomBytes } from 'node:crypto';
import { skipUnless } from '@fulfil/core/testing';
import { openPostgresRepository } from '@fulfil/storage-postgres';
import { describe, it } from 'vitest';
import { postgresDatabase } from '../scale-out/support.js';
import { describeLabelRuns, runCount } from './at-most-one-label.js';
import { describeKillRuns } from './kill-runs.js';

const url = process.env.FULFIL_TEST_POSTGRES_URL;

describe('courier labels on Postgres', () => {
  if (!url) {
    it('all of its tests', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
    return;
  }
  // Two pools on one schema of its own: the two dispatchers race for real. A hundred runs
  // already mix every fault, races and lease expiries; the soak of 10,000 is FULFIL_LONG=1's.
  describeLabelRuns(
    'postgres',
    runCount(Number(process.env.FULFIL_LABEL_RUNS_PG ?? 100), 10_000),
    async () => {
      const schema = `fulfil_labels_${process.pid}_${randomBytes(4).toString('hex')}`;
      const first = await openPostgresRepository({ connectionString: url, schema });
      const second = await openPostgresRepository({ connectionString: url, schema });
      return {
        repositories: [first, second],
        async close() {
          await second.close();
          await first.db.schema.dropSchema(schema).ifExists().cascade().execute();
          await first.close();
        },
      };
    },
  );
});

describe('courier labels on Postgres, dispatchers killed', () => {
  if (!url) {
    it('all of its tests', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
    return;
  }
  const base = url;
  describeKillRuns('postgres', runCount(6), async () => postgresDatabase(base));
});
