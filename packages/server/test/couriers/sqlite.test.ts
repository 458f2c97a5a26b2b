import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { describe } from 'vitest';
import { sqliteDatabase } from '../scale-out/support.js';
import { describeLabelRuns, runCount } from './at-most-one-label.js';
import { describeKillRuns } from './kill-runs.js';

// Both dispatchers share one in-memory database (and so one connection, whose transactions take
// turns); the Postgres runs give each its own pool.
describe('courier labels on SQLite', () => {
  describeLabelRuns('sqlite', runCount(1000), async () => {
    const repository = await openSqliteRepository({ filename: ':memory:' });
    return {
      repositories: [repository, repository],
      close: () => repository.close(),
    };
  });
});

describe('courier labels on SQLite, dispatchers killed', () => {
  describeKillRuns('sqlite', runCount(6), sqliteDatabase);
});
