import {
  type ControlledTransaction,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  sql,
} from 'kysely';
import type { KyselyRepository } from './kysely-repository.js';
import { PostgresCursor } from './postgres-cursor.js';
import {
  isPostgres,
  ORDER_TABLES,
  refreshStatistics,
  STORE_DUMP_FORMAT,
  STORE_DUMP_VERSION,
  STORE_TABLES,
  StoreDumpError,
  type StoreDumpHeader,
  type StoreDumpRow,
} from './store-dump.js';

// biome-ignore lint/suspicious/noExplicitAny: the export reads tables generically.
type AnyDb = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: see above
type AnySelect = SelectQueryBuilder<any, any, any>;

/** Orders a page: the rows of the tables that hang off them follow each page. */
const PAGE = 1000;
/** Rows of a table that hangs off the orders in one fetch of its Postgres cursor. */
const CHILD_FETCH = 1000;

/** What the export reads of a table: its columns in the database's order, store id left out. */
interface DumpTable {
  table: string;
  /** The primary key: rows go out in its order (within an order, for the tables below orders). */
  key: readonly string[];
  /** The order a row belongs to (`id` for an order itself); none for the store's own tables. */
  orderColumn?: string;
  columns: readonly string[];
}

/** A row read for the dump: its key and order columns, and its whole NDJSON line. */
type DumpLine = Record<string, unknown> & { line: string };

/**
 * Columns that never travel: the store id (the importing database's own), and a queue entry's
 * change id, a position in this database's history only (docs/polling.md); an imported entry
 * is change 0, before every cursor of the database it goes into.
 */
const LOCAL_COLUMNS = new Set(['store_id', 'change_id']);

/**
 * The columns of `table` as `select *` gives them, the local ones left out; none when the table
 * is empty, and then no store has a row of it to dump either.
 */
async function dumpTable(
  db: AnyDb,
  table: string,
  key: readonly string[],
  orderColumn?: string,
): Promise<DumpTable> {
  const row = await db.selectFrom(table).selectAll().limit(1).executeTakeFirst();
  const columns = Object.keys(row ?? {}).filter((column) => !LOCAL_COLUMNS.has(column));
  return { table, key, columns, ...(orderColumn ? { orderColumn } : {}) };
}

/**
 * The NDJSON line of the row `t`, `{"table":…,"row":…}` and its line end, built by the database:
 * making a JS object of every row and then serialising it cost most of an export. Both databases
 * write the JSON that JSON.stringify would (keys in column order, the same escapes).
 */
function lineOf(postgres: boolean, { table, columns }: DumpTable): RawBuilder<string> {
  const json = postgres
    ? sql`row_to_json(t)::text`
    : sql`json_object(${sql.join(columns.flatMap((column) => [sql.lit(column), sql.ref(`t.${column}`)]))})`;
  return sql<string>`${sql.lit(`{"table":${JSON.stringify(table)},"row":`)} || ${json} || ${sql.lit('}\n')}`;
}

/**
 * The lines of the rows of `source` that `filter` picks, with their key and order columns, in
 * order of the order they belong to and then of their key.
 */
function linesQuery(
  db: AnyDb,
  postgres: boolean,
  source: DumpTable,
  filter: (query: AnySelect) => AnySelect,
): AnySelect {
  const { table, key, orderColumn, columns } = source;
  const rows = filter(
    db.selectFrom(table).select(columns.map((column) => sql.ref(column).as(column))),
  );
  const sortedBy = [...new Set([...(orderColumn ? [orderColumn] : []), ...key])];
  let query = db
    .selectFrom(rows.as('t'))
    .select([
      ...sortedBy.map((column) => sql.ref(`t.${column}`).as(column)),
      lineOf(postgres, source).as('line'),
    ]);
  for (const column of sortedBy) query = query.orderBy(`t.${column}`);
  return query;
}

/**
 * The lines of `rows`, in order, as one buffer of UTF-8 bytes. Each line is encoded straight into
 * its place: joining a page into one string first and encoding that took more time and left a
 * large string a page for the garbage collector, which set the export's peak memory.
 */
function joinLines(...tables: readonly (readonly DumpLine[])[]): Buffer {
  let size = 0;
  for (const rows of tables) for (const row of rows) size += Buffer.byteLength(row.line);
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const rows of tables) for (const row of rows) at += bytes.write(row.line, at);
  return bytes;
}

/**
 * Keyset pages of the rows of `source` that belong to store `storeId`, in key order. Paged by id,
 * the filter on the store is kept off every index (`+store_id`): SQLite would otherwise walk the
 * store's unique index and sort all of the store's rows for every page, which makes an export
 * quadratic; through the primary key each page is one short range.
 */
async function* keysetPages(
  db: AnyDb,
  postgres: boolean,
  source: DumpTable,
  storeId: number,
): AsyncGenerator<DumpLine[]> {
  const { key } = source;
  if (source.columns.length === 0) return;
  const byId = key.length === 1 && key[0] === 'id';
  let after: unknown[] | undefined;
  for (;;) {
    const rows = (await linesQuery(db, postgres, source, (query) => {
      query = query.where(byId ? sql<number>`+store_id` : sql.ref('store_id'), '=', storeId);
      if (!after) return query;
      const columns = sql.join(key.map((column) => sql.ref(column)));
      const values = sql.join(after.map((value) => sql`${value}`));
      return query.where(sql<boolean>`(${columns}) > (${values})`);
    })
      .limit(PAGE)
      .execute()) as DumpLine[];
    if (rows.length === 0) return;
    yield rows;
    const last = rows[rows.length - 1] as DumpLine;
    after = key.map((column) => last[column]);
    if (rows.length < PAGE) return;
  }
}

/** Reads a store's orders a page at a time, and the rows of every table hanging off them. */
interface OrderPages {
  /** The next page of orders, their ids with their lines; none once all are read. */
  nextOrders(): Promise<DumpLine[]>;
  /**
   * The rows of table `children[index]` that belong to orders after `after` (none: from the
   * first) up to `last`, the last order of the page just read.
   */
  childRows(index: number, after: number | undefined, last: number): Promise<DumpLine[]>;
}

/**
 * SQLite: every page is a query through the orders' primary key, and one query a table for the
 * rows of that page's orders. Each is a short indexed read in this process, so a page costs no
 * more than the rows it returns.
 */
function pagedOrders(
  db: AnyDb,
  orders: DumpTable,
  children: readonly DumpTable[],
  storeId: number,
): OrderPages {
  const pages = keysetPages(db, false, orders, storeId);
  return {
    async nextOrders() {
      const page = await pages.next();
      return page.done ? [] : page.value;
    },
    async childRows(index, after, last) {
      const pageOrders = db
        .selectFrom('fulfillment_orders')
        .select('id')
        .where(sql<number>`+store_id`, '=', storeId)
        .where('id', '<=', last);
      const ids = after === undefined ? pageOrders : pageOrders.where('id', '>', after);
      const child = children[index] as DumpTable;
      const rows = await linesQuery(db, false, child, (query) =>
        query.where('order_id', 'in', ids),
      ).execute();
      return rows as DumpLine[];
    },
  };
}

/**
 * Postgres: one cursor over the store's orders and one over each table hanging off them, all in
 * order id order, so the whole export is six plans streamed in large fetches rather than six
 * queries a page; each table's rows are cut where the page of orders ends.
 */
async function cursorOrders(
  db: AnyDb,
  orders: DumpTable,
  children: readonly DumpTable[],
  storeId: number,
): Promise<OrderPages> {
  const orderCursor = await PostgresCursor.declare<DumpLine>(
    db,
    'dump_orders',
    linesQuery(db, true, orders, (query) => query.where('store_id', '=', storeId)),
    PAGE,
  );
  const storeOrders = db
    .selectFrom('fulfillment_orders')
    .select('id')
    .where('store_id', '=', storeId);
  const childRows = await Promise.all(
    children.map(async (child) => {
      const cursor = await PostgresCursor.declare<DumpLine>(
        db,
        `dump_${child.table}`,
        linesQuery(db, true, child, (query) => query.where('order_id', 'in', storeOrders)),
        CHILD_FETCH,
      );
      return new RowsByOrder(cursor);
    }),
  );
  return {
    nextOrders: () => orderCursor.fetch(),
    childRows: (index, _after, last) => (childRows[index] as RowsByOrder).through(last),
  };
}

/** The rows of a cursor in order id order, handed out up to an order at a time. */
class RowsByOrder {
  readonly #cursor: PostgresCursor<DumpLine>;
  #rows: DumpLine[] = [];
  #at = 0;

  constructor(cursor: PostgresCursor<DumpLine>) {
    this.#cursor = cursor;
  }

  /** The rows not handed out yet whose order id is at most `last`. */
  async through(last: number): Promise<DumpLine[]> {
    const taken: DumpLine[] = [];
    for (;;) {
      for (; this.#at < this.#rows.length; this.#at++) {
        const row = this.#rows[this.#at] as DumpLine;
        if ((row.order_id as number) > last) return taken;
        taken.push(row);
      }
      this.#rows = await this.#cursor.fetch();
      this.#at = 0;
      if (this.#rows.length === 0) return taken;
    }
  }
}

/** The store's orders a page at a time, each page followed by the rows that belong to it. */
async function* orderPages(db: AnyDb, postgres: boolean, storeId: number): AsyncGenerator<Buffer> {
  const orders = await dumpTable(db, 'fulfillment_orders', ['id'], 'id');
  if (orders.columns.length === 0) return;
  const children: DumpTable[] = [];
  for (const { table, key } of ORDER_TABLES) {
    const child = await dumpTable(db, table, key, 'order_id');
    if (child.columns.length > 0) children.push(child);
  }
  const pages = postgres
    ? await cursorOrders(db, orders, children, storeId)
    : pagedOrders(db, orders, children, storeId);
  let after: number | undefined;
  for (;;) {
    const page = await pages.nextOrders();
    if (page.length === 0) return;
    const last = (page[page.length - 1] as DumpLine).id as number;
    const tables = [page];
    for (let index = 0; index < children.length; index++) {
      tables.push(await pages.childRows(index, after, last));
    }
    after = last;
    yield joinLines(...tables);
  }
}

/** Rolls `snapshot` back; a failure to (the connection is gone) must not hide why it ended. */
async function letGo(snapshot: Pick<ControlledTransaction<unknown>, 'rollback'>): Promise<void> {
  try {
    await snapshot.rollback().execute();
  } catch {
    // kysely releases the connection whether the rollback went through or not.
  }
}

/**
 * Store `storeCode` as NDJSON, header first, in chunks of a page of rows or more (UTF-8 bytes,
 * the header as text): few and large writes for whoever streams it out. Each page of orders is
 * followed by the rows of each table that hangs off them.
 *
 * Everything is read in one read-only transaction, so the dump is one snapshot of the store:
 * taken while servers write, it holds each order as it was before or after each action, never
 * half of one. (Postgres: `repeatable read`; SQLite: one WAL read transaction.)
 */
export async function* exportStore(
  repository: KyselyRepository,
  storeCode: string,
): AsyncGenerator<string | Uint8Array> {
  const postgres = isPostgres(repository.db as AnyDb);
  // ANALYZE writes, so it cannot run in the read-only snapshot; it goes first.
  if (postgres) await refreshStatistics(repository.db as AnyDb);
  const snapshot = await repository.startReadSnapshot();
  let ended = false;
  try {
    const db = snapshot as AnyDb;
    const store = await db
      .selectFrom('stores')
      .selectAll()
      .where('code', '=', storeCode)
      .executeTakeFirst();
    if (!store) throw new StoreDumpError(`store ${storeCode} does not exist`);
    const header: StoreDumpHeader = {
      format: STORE_DUMP_FORMAT,
      version: STORE_DUMP_VERSION,
      store: storeCode,
    };
    const settings: StoreDumpRow = { table: 'stores', row: { settings: store.settings } };
    yield `${JSON.stringify(header)}\n${JSON.stringify(settings)}\n`;
    for (const { table, key } of STORE_TABLES) {
      const source = await dumpTable(db, table, key);
      for await (const rows of keysetPages(db, postgres, source, store.id)) yield joinLines(rows);
    }
    yield* orderPages(db, postgres, store.id);
    await snapshot.commit().execute();
    ended = true;
  } finally {
    // Stopped early (a failure, or the reader went away): the snapshot is let go all the same.
    if (!ended) await letGo(snapshot);
  }
}
