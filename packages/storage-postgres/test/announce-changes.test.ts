import { randomBytes } from 'node:crypto';
import { createEngine, type Engine } from '@fulfil/core';
import { fixtures, skipUnless } from '@fulfil/core/testing';
import { openPostgresRepository, type PostgresRepository } from '@fulfil/storage-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema } from './one-connection.js';
import { statementsSentBy } from './sent-statements.js';

const url = process.env.FULFIL_TEST_POSTGRES_URL;

/**
 * Write transactions announce the stores they changed to other processes once they have
 * committed, from a connection of their own (announce-changes.ts), never by a NOTIFY inside the
 * transaction, which would make Postgres commit them one at a time.
 */
describe('announcing commits to other processes on Postgres', () => {
  if (!url) {
    it('all of its tests', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
    return;
  }
  const schema = `fulfil_announce_${process.pid}_${randomBytes(4).toString('hex')}`;
  let writer: Engine;
  let other: PostgresRepository;
  let storeId: number;
  /** Told of each change the other process hears of, while a test waits for one. */
  let hear: ((storeId: number | null) => void) | undefined;
  let stopListening: (() => void) | undefined;

  beforeAll(async () => {
    writer = createEngine({
      repository: await openPostgresRepository({ connectionString: url, schema }),
    });
    await writer.loadSeed({
      stores: [
        {
          code: 'default',
          warehouses: [{ code: 'WH-A', name: 'A' }],
          stock: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 1000 }],
        },
      ],
    });
    other = await openPostgresRepository({ connectionString: url, schema });
    const store = await other.db
      .selectFrom('stores')
      .select('id')
      .where('code', '=', 'default')
      .executeTakeFirstOrThrow();
    storeId = Number(store.id);
    // Its listening connection, once connected, tells null (whatever it may have missed).
    const connected = new Promise<void>((resolve) => {
      hear = (heard) => {
        if (heard === null) resolve();
      };
    });
    stopListening = other.onQueueChange((heard) => hear?.(heard));
    await connected;
  });

  afterAll(async () => {
    stopListening?.();
    await writer?.close();
    await other?.close();
    await dropSchema(url as string, schema);
  });

  const intake = (number: string) =>
    writer.intake('default', fixtures.salesOrder(number, [{ sku: 'SKU-1', qty: 1 }]));

  /**
   * Resolves once the other process, reading each time it hears of a change of the store, reads
   * `orders` orders: a store of another schema may have the same id, and be heard of too.
   */
  const heardUntil = (orders: number) =>
    new Promise<void>((resolve) => {
      hear = async (heard) => {
        if (heard !== storeId || (await ordersOf()) < orders) return;
        hear = undefined;
        resolve();
      };
    });

  const ordersOf = async () =>
    (await other.db.selectFrom('fulfillment_orders').select('id').execute()).length;

  it('another process hears of a commit when what it committed is there to read', async () => {
    const heard = heardUntil((await ordersOf()) + 1);
    await intake('820000001');
    await heard;
  });

  it('announces from a statement of its own, outside the transactions', async () => {
    const sent = await statementsSentBy(async () => {
      const heard = heardUntil((await ordersOf()) + 5);
      await Promise.all(Array.from({ length: 5 }, (_, n) => intake(`82000010${n}`)));
      await heard;
    });
    const notifying = sent.filter((text) => text.includes('pg_notify'));
    expect(notifying).not.toEqual([]);
    // One statement for the stores of whatever committed meanwhile, never one of the intakes'.
    for (const text of notifying)
      expect(text).toMatch(/^select pg_notify\(.*unnest\(\$1::text\[\]\)/);
  });
});
