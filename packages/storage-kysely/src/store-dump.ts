import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database } from './database.js';
import { reserveHeldLines } from './held-stock.js';
import type { KyselyRepository } from './kysely-repository.js';
import { LISTED_UPGRADES } from './listed-order-upgrades.js';

/**
 * A store as NDJSON records, to move it between databases and adapters: a header, then every row
 * of the store's tables, as stored (ids, numbers, token hashes, timestamps), so that the moved
 * store answers exactly as before. Each page of orders is followed by the rows of the tables that
 * hang off them (see `exportStore`); `importStore` reads it back in one transaction.
 */
export const STORE_DUMP_FORMAT = 'fulfil-store-dump';
export const STORE_DUMP_VERSION = 1;

export interface StoreDumpHeader {
  format: typeof STORE_DUMP_FORMAT;
  version: number;
  store: string;
}

/** One row of a table, its store id left out (the importing database gives its own). */
export interface StoreDumpRow {
  table: string;
  row: Record<string, unknown>;
}

export type StoreDumpRecord = StoreDumpHeader | StoreDumpRow;

// biome-ignore lint/suspicious/noExplicitAny: the dump reads and writes tables generically.
type AnyDb = Kysely<any>;

/** Rows of one table inserted by one statement, at most. */
const PAGE = 1000;

/** Tables owned by the store directly, and the columns that order them (their primary key). */
export const STORE_TABLES: readonly { table: string; key: readonly string[] }[] = [
  { table: 'warehouses', key: ['code'] },
  { table: 'stock', key: ['warehouse_code', 'sku'] },
  { table: 'tokens', key: ['id'] },
  { table: 'sales_order_sequences', key: ['sales_order_number'] },
  // Sales orders as taken in (migration 0013): what a repeated intake is compared with.
  { table: 'sales_orders', key: ['id'] },
  // Their feed: an imported entry is change 0, like a queue entry.
  { table: 'feed_entries', key: ['feed', 'entry_id'] },
  // Returns and their quarantined goods (migration 0019).
  { table: 'returns', key: ['id'] },
  { table: 'return_quarantine', key: ['warehouse_code', 'sku'] },
  // Stock adjustments and their lines (migration 0023): the stock history.
  { table: 'stock_adjustments', key: ['id'] },
  { table: 'stock_adjustment_lines', key: ['adjustment_id', 'line'] },
  // Absolute sets (migration 0027): the rest of the stock history.
  { table: 'stock_sets', key: ['id'] },
  // Fulfillment orders routed per warehouse and local day (migration 0029): a store moved
  // within a day keeps its warehouses' daily capacity used.
  { table: 'warehouse_days', key: ['warehouse_code', 'day'] },
  // What operators did to the store (migration 0004): no one could rebuild it.
  { table: 'store_audit', key: ['id'] },
];

/** Tables that hang off a fulfillment order; written after the page of orders they belong to. */
export const ORDER_TABLES: readonly { table: string; key: readonly string[] }[] = [
  { table: 'order_items', key: ['id'] },
  { table: 'shipments', key: ['id'] },
  { table: 'invoices', key: ['id'] },
  { table: 'queue_entries', key: ['order_id', 'queue'] },
  { table: 'audit_events', key: ['id'] },
  { table: 'courier_labels', key: ['id'] },
];

/** Tables whose ids the dump keeps, and whose id generators must then move past them. */
const ID_TABLES = [
  'tokens',
  'store_audit',
  'sales_orders',
  'returns',
  'stock_adjustments',
  'stock_sets',
  'fulfillment_orders',
  ...ORDER_TABLES.map((t) => t.table),
].filter((table) => table !== 'queue_entries');

/** A column every row of `table` has, as `id`: to count the rows an insert took. */
function keyColumn(table: string) {
  const key = [...STORE_TABLES, ...ORDER_TABLES].find((t) => t.table === table)?.key[0] ?? 'id';
  return sql.ref<number>(key).as('id');
}

const KNOWN_TABLES = new Set([
  ...STORE_TABLES.map((t) => t.table),
  'fulfillment_orders',
  ...ORDER_TABLES.map((t) => t.table),
]);

/** Thrown when a store cannot be exported or a dump cannot be imported; says why, names the line. */
export class StoreDumpError extends Error {
  override readonly name = 'StoreDumpError';
}

/** Whether `db` is a Postgres database (the export and import differ in a few statements). */
export function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A record of a dump as read, with the line it came from for errors. */
export interface NumberedRecord {
  line: number;
  value: unknown;
}

function isRow(value: unknown): value is StoreDumpRow {
  const record = value as Partial<StoreDumpRow> | null;
  return (
    typeof record === 'object' &&
    record !== null &&
    typeof record.table === 'string' &&
    typeof record.row === 'object' &&
    record.row !== null &&
    !Array.isArray(record.row)
  );
}

/** The header of a dump, checked: its format, a version this code reads, the store it is for. */
export function checkHeader(first: NumberedRecord | undefined, storeCode: string): void {
  const header = first?.value as Partial<StoreDumpHeader> | undefined;
  if (!first || header?.format !== STORE_DUMP_FORMAT) {
    throw new StoreDumpError(
      `line ${first?.line ?? 1}: not a store dump (the first line must be its header)`,
    );
  }
  if (typeof header.version !== 'number' || header.version > STORE_DUMP_VERSION) {
    throw new StoreDumpError(
      `line ${first.line}: dump format version ${String(header.version)} is newer than this fulfil reads (${STORE_DUMP_VERSION}); upgrade fulfil`,
    );
  }
  if (header.store !== storeCode) {
    throw new StoreDumpError(
      `line ${first.line}: this dump is of store ${String(header.store)}, not ${storeCode} (give --store ${String(header.store)})`,
    );
  }
}

/** Rows taken in and, under `merge`, rows left out because the store had them already. */
export interface StoreImportCounts {
  rows: Record<string, number>;
  kept: Record<string, number>;
}

/**
 * Loads a dump into store `storeCode` in one transaction: a dump is taken in whole or not at all.
 * The store must not exist or hold nothing yet, unless `merge`: then only rows it lacks are taken
 * in (an order it has already, by number or id, is kept as it is, with its items, shipments and
 * audit). Rows are inserted in batches; ids are kept, and the id generators moved past them.
 */
export async function importStore(
  repository: KyselyRepository,
  storeCode: string,
  records: AsyncIterable<NumberedRecord>,
  options: { merge?: boolean } = {},
): Promise<StoreImportCounts> {
  const merge = options.merge ?? false;
  const counts: StoreImportCounts = { rows: {}, kept: {} };
  /** Under `merge`, the orders of the current page that were taken in: only their rows follow. */
  let takenOrders = new Set<number>();
  let lastTable = '';
  let seenStore = false;
  const postgres = isPostgres(repository.db as AnyDb);
  const bulk = repository.bulkStatements;
  // Waits for a lock held by another process (a server on the same SQLite file) to begin.
  await repository.writeTransaction(async (trx) => {
    const db = trx as AnyDb;
    const iterator = records[Symbol.asyncIterator]();
    const first = await iterator.next();
    checkHeader(first.done ? undefined : first.value, storeCode);
    const existing = await db
      .selectFrom('stores')
      .select('id')
      .where('code', '=', storeCode)
      .executeTakeFirst();
    let storeId = existing?.id as number | undefined;
    if (storeId !== undefined) {
      const used = await db
        .selectFrom('warehouses')
        .select('code')
        .where('store_id', '=', storeId)
        .unionAll(
          db
            .selectFrom('fulfillment_orders')
            .select('fulfillment_order_number as code')
            .where('store_id', '=', storeId),
        )
        .unionAll(db.selectFrom('tokens').select('name as code').where('store_id', '=', storeId))
        .limit(1)
        .execute();
      if (used.length > 0 && !merge) {
        throw new StoreDumpError(
          `store ${storeCode} is not empty: a dump is imported into an empty store only (--merge takes in what it lacks)`,
        );
      }
    }
    let pending: { table: string; rows: Record<string, unknown>[]; line: number } | undefined;
    const flush = async () => {
      if (!pending || pending.rows.length === 0) return;
      const { table, line } = pending;
      let rows = pending.rows;
      pending = undefined;
      const keep = (rowsKept: number) => {
        counts.kept[table] = (counts.kept[table] ?? 0) + rowsKept;
      };
      if (merge && ORDER_TABLES.some((t) => t.table === table)) {
        const all = rows.length;
        rows = rows.filter((row) => takenOrders.has(row.order_id as number));
        keep(all - rows.length);
      }
      if (rows.length === 0) return;
      // Every column any row names; one a row lacks is stored as null.
      const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
      let taken = rows.length;
      try {
        const inserted = await bulk.run(
          db as unknown as Kysely<Database>,
          {
            name: `import ${table} (${columns.join(', ')})${merge ? ', kept if there' : ''}`,
            table: table as keyof Database & string,
            columns,
            // Under `merge`, rows the store has already (by any unique key) are left as they are.
            finish: (insert) =>
              merge
                ? insert.onConflict((conflict) => conflict.doNothing()).returning(keyColumn(table))
                : insert,
          },
          rows,
        );
        if (merge) {
          taken = inserted.length;
          if (table === 'fulfillment_orders') {
            for (const row of inserted as unknown as { id: number }[]) takenOrders.add(row.id);
          }
        }
      } catch (error) {
        throw new StoreDumpError(
          `rows of ${table} up to line ${line} cannot be stored: ${(error as Error).message}`,
        );
      }
      counts.rows[table] = (counts.rows[table] ?? 0) + taken;
      if (taken < rows.length) keep(rows.length - taken);
    };
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      const { line, value } = next.value;
      if (!isRow(value) || (!KNOWN_TABLES.has(value.table) && value.table !== 'stores')) {
        throw new StoreDumpError(`line ${line}: not a record of a store dump`);
      }
      if (value.table === 'stores') {
        if (seenStore) throw new StoreDumpError(`line ${line}: a second store record`);
        seenStore = true;
        if (existing && merge) continue;
        if (existing) {
          await db
            .updateTable('stores')
            .set({ settings: value.row.settings })
            .where('id', '=', storeId as number)
            .execute();
        } else {
          const created = await db
            .insertInto('stores')
            .values({ code: storeCode, settings: value.row.settings })
            .returning('id')
            .executeTakeFirstOrThrow();
          storeId = created.id as number;
        }
        continue;
      }
      if (storeId === undefined)
        throw new StoreDumpError(`line ${line}: rows before the store record`);
      if (pending && pending.table !== value.table) await flush();
      // A new page of orders: the rows of the previous page's orders are all through.
      if (value.table === 'fulfillment_orders' && lastTable !== 'fulfillment_orders') {
        takenOrders = new Set();
      }
      lastTable = value.table;
      pending ??= { table: value.table, rows: [], line };
      const row =
        STORE_TABLES.some((t) => t.table === value.table) ||
        value.table === 'fulfillment_orders' ||
        value.table === 'queue_entries'
          ? { ...value.row, store_id: storeId }
          : value.row;
      pending.rows.push(row);
      pending.line = line;
      if (pending.rows.length >= PAGE) await flush();
    }
    await flush();
    if (storeId === undefined) throw new StoreDumpError('the dump has no store record');
    // A dump an older release wrote holds orders as that release left them: listed here as the
    // migrations listed every order then, they are brought to this release's rules below.
    for (const upgrade of LISTED_UPGRADES) await upgrade.listStore(trx, storeId);
    // Orders taken into a store that kept its own stock rows hold their reservations there too:
    // reserved is what the store's live unshipped lines hold, the ones it had and those it took.
    if (merge && existing) await reserveHeldLines(db as unknown as Kysely<Database>, storeId);
    if (postgres) {
      for (const table of ID_TABLES) {
        await sql`select setval(pg_get_serial_sequence(${table}, 'id'), greatest((select max(id) from ${sql.table(table)}), 1))`.execute(
          db,
        );
      }
    }
  });
  if (postgres) await refreshStatistics(repository.db as AnyDb);
  await repository.upgradeListedOrders();
  return counts;
}

/**
 * Postgres plans from statistics that a bulk load (`import`, `orders import`) leaves stale until
 * autovacuum comes by; without them each page of an export, and a store's first polls, walk
 * whole tables (a million-order export ran 9 times slower). ANALYZE samples, so it takes
 * seconds at any size, and it blocks no reader or writer.
 */
export async function refreshStatistics(db: AnyDb): Promise<void> {
  for (const table of KNOWN_TABLES) await sql`analyze ${sql.table(table)}`.execute(db);
}
