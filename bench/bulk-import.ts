/**
 * Bulk import: `fulfil orders import <file>` (a child process: reading and validating the file,
 * routing, a thousand orders per transaction; the process's start is timed apart and left out,
 * as the floor has none) against the raw floor storing the same orders
 * (floor-schema.ts: order, lines, queue entry, audit; a thousand orders per transaction).
 * Leaves both databases filled with the orders in pending_accept for the HTTP scenarios.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runFulfil } from './child.js';
import type { BenchDatabase } from './databases.js';
import { benchSalesOrder, fillStore, STORE } from './fill-store.js';
import { openFloorPostgres } from './floor-postgres.js';
import type { AcceptRequest } from './floor-schema.js';
import { openFloorSqlite } from './floor-sqlite.js';
import type { FloorStore } from './floor-store.js';
import { dropSchema } from './raw-postgres.js';
import { addRow, ratioOf } from './summary.js';

/** Where the raw floor's store of a database lives, as floor-server.ts takes it. */
export interface FloorPlace {
  mode: 'accept-sqlite' | 'accept-postgres';
  args: string[];
  drop(): Promise<void>;
}

function floorPlaceFor(database: BenchDatabase, dir: string, postgresUrl?: string): FloorPlace {
  if (database.kind === 'sqlite' || !postgresUrl) {
    return { mode: 'accept-sqlite', args: [join(dir, 'floor.db')], drop: async () => {} };
  }
  const schema = `fulfil_bench_floor_${process.pid}`;
  return {
    mode: 'accept-postgres',
    args: [postgresUrl, schema],
    drop: () => dropSchema(postgresUrl, schema),
  };
}

function createFloor(place: FloorPlace): Promise<FloorStore> | FloorStore {
  const [first = '', second = ''] = place.args;
  return place.mode === 'accept-sqlite'
    ? openFloorSqlite(first, true)
    : openFloorPostgres(first, second, true);
}

const perSecond = (count: number, ms: number) => count / (ms / 1000);

/** The floor's store of the imported orders, and the accept request of each of them. */
export interface ImportedFloor {
  place: FloorPlace;
  accepts: AcceptRequest[];
}

export async function benchImport(
  database: BenchDatabase,
  dir: string,
  count: number,
  postgresUrl?: string,
): Promise<ImportedFloor> {
  await fillStore(database, { invoiced: 0, pending: 0 });
  const orders = Array.from({ length: count }, (_, n) => benchSalesOrder(n));
  const file = join(dir, `import-${database.kind}.json`);
  writeFileSync(file, JSON.stringify(orders));
  const empty = join(dir, 'import-empty.json');
  writeFileSync(empty, '[]');
  const importMs = async (path: string) => {
    const started = performance.now();
    await runFulfil(dir, ['orders', 'import', path, '--db', database.url, '--store', STORE]);
    return performance.now() - started;
  };
  // The floor runs in this process: the CLI's start (node, opening the database, its migration
  // check) is timed on an empty file in the same run and taken out, so both sides count only
  // the orders going in.
  const startMs = await importMs(empty);
  const totalMs = await importMs(file);
  const ours = perSecond(count, Math.max(1, totalMs - startMs));

  const place = floorPlaceFor(database, dir, postgresUrl);
  const floorStore = await createFloor(place);
  let floor: number;
  let accepts: AcceptRequest[];
  try {
    const floorStarted = performance.now();
    accepts = await floorStore.intake(orders);
    floor = perSecond(count, performance.now() - floorStarted);
  } finally {
    await floorStore.close();
  }
  addRow({
    scenario: `bulk import ${count} orders (CLI; its start, ${Math.round(startMs)} ms, measured and taken out), ${database.label}`,
    fulfil: `${Math.round(ours)} orders/s (${Math.round(perSecond(count, totalMs))} with the start)`,
    floor: `${Math.round(floor)} orders/s`,
    ratio: ratioOf(ours, floor),
    target: database.kind === 'sqlite' ? '≥ 5,000 orders/s' : '—',
  });
  return { place, accepts };
}
