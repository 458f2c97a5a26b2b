import {
  createEngine,
  DomainError,
  type Engine,
  ManualClock,
  type Principal,
  type QueueName,
  type Unverified,
} from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { sql } from 'kysely';
import { openSqliteRepository, type SqliteRepository } from '../../src/index.js';

export const SECRETS = {
  partnerA: 'partner-a-secret-0123456789-abcdefghijklmnop',
  partnerB: 'partner-b-secret-0123456789-abcdefghijklmnop',
  erp: 'erp-secret-0123456789-abcdefghijklmnopqrstuv',
};

/** A sales order as the shop sends it (price 10 a unit unless given, shipping 5). */
export const salesOrder = fixtures.salesOrder;

/** An argument list with every `X | Unverified` parameter widened to `unknown`. */
type LooseArgs<TArgs extends unknown[]> = {
  [I in keyof TArgs]: Unverified extends TArgs[I] ? unknown : TArgs[I];
};

/**
 * The engine as these tests drive it: bodies built by hand, many deliberately wrong, that the
 * engine must check at run time; the compiler is told to leave them to it.
 */
export type LooseEngine = {
  [K in keyof Engine]: Engine[K] extends (...args: infer A) => infer R
    ? (...args: LooseArgs<A>) => R
    : Engine[K];
};

export interface Harness {
  engine: LooseEngine;
  clock: ManualClock;
  partnerA: Principal;
  partnerB: Principal;
  erp: Principal;
  /** Every row of every table, to prove a failed request changed nothing. */
  snapshot(): Promise<Record<string, unknown[]>>;
  queue(
    actor: Principal,
    queue: QueueName,
  ): Promise<
    { number: string; status: string; items: { id: number; status: string; sku: string }[] }[]
  >;
  /** Every stock row of store `default`, by warehouse then sku. */
  stock(): Promise<StockRow[]>;
  /** One stock row of store `default`; zeros when the row does not exist. */
  level(
    warehouse_code: string,
    sku: string,
  ): Promise<{ on_hand: number; reserved: number; available: number }>;
}

export interface StockRow {
  warehouse_code: string;
  sku: string;
  on_hand: number;
  reserved: number;
}

/** An engine on in-memory SQLite with store `default`: WH-A (priority 10), WH-B (5), WH-C (courier). */
export async function openHarness(settings: Record<string, unknown> = {}): Promise<Harness> {
  const { engine, clock, snapshot } = await openEmptyEngine();
  await engine.loadSeed({
    stores: [
      {
        code: 'default',
        settings: { partial_items: true, partial_qty: false, reroute: true, ...settings },
        warehouses: [
          { code: 'WH-A', name: 'Partner A', priority: 10 },
          { code: 'WH-B', name: 'Partner B', priority: 5 },
          { code: 'WH-C', name: 'Courier hub', priority: 1, fulfilled_by: 'courier' },
        ],
        stock: [
          { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 10 },
          { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 10 },
          { warehouse_code: 'WH-A', sku: 'SKU-3', qty: 0 },
          { warehouse_code: 'WH-B', sku: 'SKU-3', qty: 5 },
        ],
        tokens: [
          { name: 'partner-a', token: SECRETS.partnerA, acl: 'partner', warehouses: ['WH-A'] },
          { name: 'partner-b', token: SECRETS.partnerB, acl: 'partner', warehouses: ['WH-B'] },
          { name: 'erp', token: SECRETS.erp, acl: 'erp' },
        ],
      },
    ],
  });
  const [partnerA, partnerB, erp] = await Promise.all([
    engine.authenticate('default', SECRETS.partnerA),
    engine.authenticate('default', SECRETS.partnerB),
    engine.authenticate('default', SECRETS.erp),
  ]);
  return {
    engine,
    clock,
    partnerA,
    partnerB,
    erp,
    snapshot,
    stock: async () =>
      (await engine.listStock('default')).map(({ warehouse_code, sku, on_hand, reserved }) => ({
        warehouse_code,
        sku,
        on_hand,
        reserved,
      })),
    level: async (warehouse_code, sku) => {
      const row = (await engine.listStock('default', { sku })).find(
        (level) => level.warehouse_code === warehouse_code,
      );
      return row
        ? { on_hand: row.on_hand, reserved: row.reserved, available: row.available }
        : { on_hand: 0, reserved: 0, available: 0 };
    },
    queue: async (actor, queue) =>
      (await engine.poll(actor, queue)).map((order) => ({
        number: order.fulfillment_order_number,
        status: order.status,
        items: order.items.map(({ id, status, sku }) => ({ id, status, sku })),
      })),
  };
}

/** Every row of every table of the database, ordered. */
async function snapshotOf(repository: SqliteRepository): Promise<Record<string, unknown[]>> {
  const tables = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' order by name`.execute(repository.db);
  const dump: Record<string, unknown[]> = {};
  for (const { name } of tables.rows) {
    dump[name] = (
      await sql`select * from ${sql.table(name)} order by 1`.execute(repository.db)
    ).rows;
  }
  return dump;
}

/** An engine on a fresh in-memory SQLite database: no store, nothing seeded. */
export async function openEmptyEngine(): Promise<Pick<Harness, 'engine' | 'clock' | 'snapshot'>> {
  const clock = new ManualClock('2026-03-01T09:00:00Z');
  const repository = await openSqliteRepository({ filename: ':memory:' });
  const engine = createEngine({ repository, clock }) as LooseEngine;
  return { engine, clock, snapshot: () => snapshotOf(repository) };
}

/** The DomainError that `run` rejects with; throws when it resolves or fails otherwise. */
export async function domainError(
  run: Promise<unknown> | (() => Promise<unknown>),
): Promise<DomainError> {
  const outcome = await (typeof run === 'function' ? run() : run).then(
    (value: unknown) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome))
    throw new Error(
      `expected a DomainError, got a result: ${JSON.stringify(outcome.value)?.slice(0, 200)}`,
    );
  if (!(outcome.error instanceof DomainError)) throw outcome.error;
  return outcome.error;
}

/** The field names of an error's parameters. */
export function fieldNames(error: DomainError): (string | undefined)[] {
  return error.parameters.map((parameter) => parameter.fieldName);
}
