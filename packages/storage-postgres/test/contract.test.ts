import { randomBytes } from 'node:crypto';
import { runRepositoryContract, skipUnless } from '@fulfil/core/testing';
import { openPostgresRepository } from '@fulfil/storage-postgres';
import pg from 'pg';
import { it } from 'vitest';

const url = process.env.FULFIL_TEST_POSTGRES_URL;

/** Runs one SQL statement on a connection of its own. */
async function execute(connectionString: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

if (url) {
  // Every test gets a schema of its own, created by the repository and dropped afterwards.
  runRepositoryContract('postgres', async () => {
    const schema = `fulfil_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    return {
      repository: await openPostgresRepository({ connectionString: url, schema }),
      cleanup: () => execute(url, `drop schema if exists "${schema}" cascade`),
      openAnother: () => openPostgresRepository({ connectionString: url, schema }),
    };
  });
} else {
  it(
    'postgres repository contract',
    skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'),
    () => {},
  );
}
