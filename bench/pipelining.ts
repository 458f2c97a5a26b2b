/**
 * Does a driver that pipelines make an action cheaper? (docs/benchmarks.md, "A pipelining
 * driver".) node-postgres sends a statement and waits for its answer before it sends the next;
 * postgres.js can send the next ones without waiting. The same accept, of the floor's tables
 * (floor-schema.ts), four ways, in process, ten at a time:
 *
 * - pg, statement by statement: the floor's accept, ten round trips (floor-postgres.ts);
 * - pg, fewest round trips, four: BEGIN, the order and its items read in one statement under
 *   the order's lock, every write as one statement of data-modifying `WITH` clauses, COMMIT
 *   (Fulfil's accept is shaped so, with two reads more: its store, and its order's parts);
 * - postgres.js, the same four statements, each awaited: the driver's own cost;
 * - postgres.js, pipelined: BEGIN sent with the locked read, the writes with COMMIT: two
 *   round trips, the fewest an action can have that reads before it writes.
 *
 * The four take turns, round after round, each starting with the next. A side's figure is the
 * median of its rounds' transactions a second; the ratio is pipelined against pg's fewest round
 * trips, the median of the rounds' ratios. Beside it, the CPU a transaction cost this process
 * and the Postgres backends serving it (found by their `application_name`), read from /proc.
 * Afterwards every order must have been accepted exactly once.
 */
import postgres from 'postgres';
import { backendCpu, backendCpuSince } from './backend-cpu.js';
import { openFloorPostgres } from './floor-postgres.js';
import { acceptAnswer, checkAccept, type FloorItem, floorTables } from './floor-schema.js';
import { median } from './measure.js';
import { dropSchema, inTransaction, pg, withPostgres } from './raw-postgres.js';
import { addRow, ratioOf } from './summary.js';

const WORKERS = 10;

export interface PipeliningSizes {
  /** Accepts in one run of one side. */
  accepts: number;
  rounds: number;
}

export const pipeliningSizes = (quick: boolean): PipeliningSizes =>
  quick ? { accepts: 100, rounds: 1 } : { accepts: 3_000, rounds: 4 };

/** The order and its items, read under the order's lock: one row an item. */
const LOCKED_READ = `select o.id, o.status as order_status, o.warehouse_code, o.header,
    i.id as item_id, i.status, i.sku, i.name, i.qty
  from floor_orders o join floor_items i on i.order_id = o.id
  where o.number = $1 order by i.position for update of o`;

/** Every write of an accept, as one statement. */
const WRITES = `with items as (
    update floor_items set status = 'pending_allocation' where order_id = $1
  ), orders as (
    update floor_orders set status = 'pending_allocation', updated_at = $2 where id = $1
  ), audit as (
    insert into floor_audit (order_id, at, actor, action, details)
    values ($1, $2, 'bench', 'accept', $3)
  ), dropped as (
    delete from floor_queue where order_id = $1 and queue = 'pending_accept'
  )
  insert into floor_queue (order_id, queue, warehouse_code, updated_at)
  values ($1, 'pending_allocation', $4, $2)`;

interface LockedRow {
  id: string;
  order_status: string;
  warehouse_code: string;
  header: string;
  item_id: string;
  status: string;
  sku: string;
  name: string;
  qty: number;
}

/** What an accept does between its read and its writes, the same for every side. */
function decide(number: string, rows: readonly LockedRow[]) {
  const first = rows[0];
  if (first?.order_status !== 'pending_accept') {
    throw new Error(`pipelining: order ${number} cannot be accepted`);
  }
  const items: FloorItem[] = rows.map((row) => ({
    id: Number(row.item_id),
    status: row.status,
    warehouse_code: row.warehouse_code,
    sku: row.sku,
    name: row.name,
    qty: row.qty,
  }));
  const request = {
    order: { order_id: number, items: items.map((item) => ({ item_id: item.id, qty: item.qty })) },
  };
  checkAccept(request, items);
  const at = new Date().toISOString();
  const order = {
    id: Number(first.id),
    status: first.order_status,
    warehouse_code: first.warehouse_code,
    header: first.header,
  };
  return {
    writes: [first.id, at, JSON.stringify(request.order), first.warehouse_code],
    answer: acceptAnswer(order, items, at),
  };
}

type Accept = (number: string) => Promise<string>;

interface Side {
  name: string;
  /** The `application_name` of its connections. */
  application: string;
  accept: Accept;
  close(): Promise<void>;
  runs: { perSecond: number; cpuMs: number; postgresCpuMs: number }[];
}

async function pgSides(url: string, schema: string, tag: string): Promise<Side[]> {
  const application = (name: string) => `fulfil_pipelining_${tag}_${name}`;
  const withApplication = (name: string) => {
    const parsed = new URL(url);
    parsed.searchParams.set('application_name', application(name));
    return parsed.href;
  };
  const floor = await openFloorPostgres(withApplication('pg_each'), schema, false);
  const pool = new pg.Pool({
    connectionString: withApplication('pg_fewest'),
    max: WORKERS,
    options: `-c search_path=${schema}`,
  });
  const fewest: Accept = (number) =>
    inTransaction(pool, async (client) => {
      const { rows } = await client.query<LockedRow>({
        name: 'locked_read',
        text: LOCKED_READ,
        values: [number],
      });
      const { writes, answer } = decide(number, rows);
      await client.query({ name: 'writes', text: WRITES, values: writes });
      return answer;
    });
  return [
    {
      name: 'pg, statement by statement (10 round trips)',
      application: application('pg_each'),
      accept: (number) => floor.accept({ order: { order_id: number, items: [] } }),
      close: () => floor.close(),
      runs: [],
    },
    {
      name: 'pg, fewest round trips (4)',
      application: application('pg_fewest'),
      accept: fewest,
      close: () => pool.end(),
      runs: [],
    },
  ];
}

function postgresJsSides(url: string, schema: string, tag: string): Side[] {
  const open = (name: string) =>
    postgres(url, {
      max: WORKERS,
      connection: { application_name: `fulfil_pipelining_${tag}_${name}`, search_path: schema },
      onnotice: () => {},
    });
  const awaited = open('pjs_each');
  const pipelined = open('pjs_pipelined');
  const prepared = { prepare: true } as const;
  return [
    {
      name: 'postgres.js, the same 4, each awaited',
      application: `fulfil_pipelining_${tag}_pjs_each`,
      accept: (number) =>
        awaited.begin(async (sql) => {
          const rows = await sql.unsafe<LockedRow[]>(LOCKED_READ, [number], prepared);
          const { writes, answer } = decide(number, rows);
          await sql.unsafe(WRITES, writes, prepared);
          return answer;
        }) as Promise<string>,
      close: () => awaited.end(),
      runs: [],
    },
    {
      name: 'postgres.js, pipelined (2 round trips)',
      application: `fulfil_pipelining_${tag}_pjs_pipelined`,
      accept: async (number) => {
        // postgres.js sends a query once it is awaited or executed: `execute` sends it now.
        const sql = await pipelined.reserve();
        try {
          const begun = sql.unsafe('begin').execute();
          const read = sql.unsafe<LockedRow[]>(LOCKED_READ, [number], prepared).execute();
          let decided: ReturnType<typeof decide>;
          try {
            await begun;
            decided = decide(number, await read);
          } catch (error) {
            await sql.unsafe('rollback');
            throw error;
          }
          // A failed write aborts the transaction: the COMMIT sent with it then rolls back.
          const settled = await Promise.allSettled([
            sql.unsafe(WRITES, decided.writes, prepared).execute(),
            sql.unsafe('commit').execute(),
          ]);
          for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
          return decided.answer;
        } finally {
          sql.release();
        }
      },
      close: () => pipelined.end(),
      runs: [],
    },
  ];
}

/** Two-line orders `P-<n>`, pending acceptance, one queue entry each, written by set. */
async function fill(url: string, schema: string, orders: number): Promise<void> {
  await withPostgres(url, async (client) => {
    await client.query(`create schema ${schema}`);
    await client.query(`set search_path = ${schema}`);
    for (const ddl of floorTables('postgres')) await client.query(ddl);
    await client.query(
      `insert into floor_orders (number, status, warehouse_code, updated_at, header)
       select 'P-' || n, 'pending_accept', 'WH-A', '2026-01-01T00:00:00Z',
         '{"sales_order_number":"S-' || n || '"}'
       from generate_series(1, $1) n`,
      [orders],
    );
    await client.query(
      `insert into floor_items (order_id, position, status, warehouse_code, sku, name, qty)
       select o.id, p, 'pending_accept', 'WH-A', 'SKU-' || p, 'Item ' || p, p
       from floor_orders o, generate_series(0, 1) p`,
    );
    await client.query(
      `insert into floor_queue (order_id, queue, warehouse_code, updated_at)
       select id, 'pending_accept', 'WH-A', updated_at from floor_orders`,
    );
    await client.query('analyze');
  });
}

/** Accepts `numbers`, WORKERS at a time; the side's figures of the run. */
async function runSide(url: string, side: Side, numbers: readonly string[]) {
  let next = 0;
  const worker = async () => {
    while (next < numbers.length) await side.accept(numbers[next++] as string);
  };
  // The pool's connections are open and their statements prepared before the clock starts.
  const warm = numbers.slice(0, WORKERS);
  next = warm.length;
  await Promise.all(warm.map((number) => side.accept(number)));
  const measured = numbers.length - warm.length;
  const backendsBefore = await backendCpu(url, side.application);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: WORKERS }, worker));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const postgresCpu = await backendCpuSince(url, side.application, backendsBefore);
  return {
    perSecond: measured / seconds,
    cpuMs: (cpu.user + cpu.system) / 1000 / measured,
    postgresCpuMs: postgresCpu / measured,
  };
}

export async function benchPipelining(url: string, sizes: PipeliningSizes): Promise<void> {
  const tag = String(process.pid);
  const schema = `fulfil_bench_pipelining_${tag}`;
  const sides: Side[] = [];
  const total = sizes.accepts * 4 * sizes.rounds;
  try {
    await fill(url, schema, total);
    sides.push(...(await pgSides(url, schema, tag)), ...postgresJsSides(url, schema, tag));
    let used = 0;
    for (let round = 0; round < sizes.rounds; round++) {
      for (let turn = 0; turn < sides.length; turn++) {
        const side = sides[(round + turn) % sides.length] as Side;
        const numbers = Array.from({ length: sizes.accepts }, () => `P-${++used}`);
        side.runs.push(await runSide(url, side, numbers));
      }
    }
    const [accepted] = await withPostgres(url, async (client) => {
      const { rows } = await client.query<{ accepted: string; audits: string }>(
        `select (select count(*) from ${schema}.floor_orders where status = 'pending_allocation') as accepted,
                (select count(*) from ${schema}.floor_audit) as audits`,
      );
      return rows;
    });
    if (Number(accepted?.accepted) !== total || Number(accepted?.audits) !== total) {
      throw new Error(
        `pipelining: ${accepted?.accepted} orders accepted and ${accepted?.audits} audit events, not ${total}`,
      );
    }
    for (const side of sides) {
      const perSecond = median(side.runs.map((run) => run.perSecond));
      console.log(
        `  ${side.name}: ${perSecond.toFixed(0)} accepts/s, ` +
          `${median(side.runs.map((run) => run.cpuMs)).toFixed(3)} ms CPU here and ` +
          `${median(side.runs.map((run) => run.postgresCpuMs)).toFixed(3)} ms in Postgres an accept ` +
          `(rounds: ${side.runs.map((run) => run.perSecond.toFixed(0)).join(', ')})`,
      );
    }
    const [, fewest, , pipelined] = sides as [Side, Side, Side, Side];
    const ratio = median(
      pipelined.runs.map((run, round) => run.perSecond / (fewest.runs[round]?.perSecond ?? 0)),
    );
    console.log(`  pipelined against pg's fewest round trips: ${ratio.toFixed(2)}`);
    addRow({
      scenario: 'accept pipelined (postgres.js) vs pg, 4 statements (pipelining)',
      fulfil: `${median(pipelined.runs.map((run) => run.perSecond)).toFixed(0)} accepts/s`,
      floor: `${median(fewest.runs.map((run) => run.perSecond)).toFixed(0)} accepts/s`,
      ratio: ratioOf(ratio, 1),
      target: '≥ 1.2 to adopt',
    });
  } finally {
    for (const side of sides) await side.close();
    await dropSchema(url, schema);
  }
}
