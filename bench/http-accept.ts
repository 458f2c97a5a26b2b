/**
 * Accepting over HTTP, one fresh order (2 lines) per request: `fulfil serve` against a bare
 * node:http server doing the same row changes with raw prepared statements (floor-schema.ts).
 * Both sides accept the orders bulk-import.ts left in pending_accept; afterwards each must hold
 * exactly as many accepted orders as it answered 200 for.
 */
import type { OrderResource } from '@fulfil/core';
import type { FloorPlace } from './bulk-import.js';
import { startFloor, startFulfil } from './child.js';
import type { BenchDatabase } from './databases.js';
import { ordersInQueue, PARTNER_SECRET, STORE } from './fill-store.js';
import type { AcceptRequest } from './floor-schema.js';
import { CONNECTIONS, describeLoad, type LoadResult, postsInTurn } from './load.js';
import type { Sizes } from './options.js';
import { addRow, ratioOf } from './summary.js';

export const ACCEPT_PATH = `/rest/${STORE}/V1/fulfillmentOrder/accept`;

/** The orders a `measureAccept` of `sizes` may use up. */
const acceptsNeeded = (sizes: Sizes) => sizes.acceptWarmup + sizes.acceptRequests + 2 * CONNECTIONS;

/**
 * Warm-up, then the measured load; request n sends `bodies[n]`. `measuring` is told when the
 * warm-up is over.
 */
async function measureAccept(
  url: string,
  bodies: string[],
  sizes: Sizes,
  measuring?: () => void,
): Promise<LoadResult> {
  const needed = acceptsNeeded(sizes);
  if (bodies.length < needed) throw new Error(`accept: ${bodies.length} orders, ${needed} needed`);
  const run = postsInTurn(url, PARTNER_SECRET, (n) => bodies[n] ?? '');
  await run(sizes.acceptWarmup);
  measuring?.();
  return run(sizes.acceptRequests);
}

/** The accept of every line of `order`, as a partner sends it. */
export function acceptBody(order: OrderResource): string {
  return JSON.stringify({
    order: {
      order_id: order.fulfillment_order_number,
      items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
    },
  });
}

export async function benchHttpAccept(
  database: BenchDatabase,
  floorPlace: FloorPlace,
  floorRequests: readonly AcceptRequest[],
  dir: string,
  sizes: Sizes,
): Promise<void> {
  const pending = await ordersInQueue(database, 'pending_accept');
  // The poll scenario may have accepted some of the pool's orders already.
  const acceptedBefore = (await ordersInQueue(database, 'pending_allocation')).length;
  const bodies = pending.map(acceptBody);
  const fulfil = await startFulfil(dir, database.url);
  let ours: LoadResult;
  let ourCpu = 0;
  try {
    ourCpu = -fulfil.cpuMs();
    ours = await measureAccept(fulfil.url + ACCEPT_PATH, bodies, sizes, () => {
      ourCpu = -fulfil.cpuMs();
    });
    ourCpu = (ourCpu + fulfil.cpuMs()) / ours.requests;
  } finally {
    await fulfil.stop();
  }
  const floorServer = await startFloor(dir, floorPlace.mode, floorPlace.args);
  let floor: LoadResult;
  let floorAccepted: number;
  let floorCpu = 0;
  try {
    floor = await measureAccept(
      floorServer.url,
      floorRequests.map((request) => JSON.stringify(request)),
      sizes,
      () => {
        floorCpu = -floorServer.cpuMs();
      },
    );
    floorCpu = (floorCpu + floorServer.cpuMs()) / floor.requests;
    const answer = await fetch(floorServer.url);
    floorAccepted = ((await answer.json()) as { pending_allocation: number }).pending_allocation;
  } finally {
    await floorServer.stop();
  }
  const accepted = (await ordersInQueue(database, 'pending_allocation')).length - acceptedBefore;
  const expected = sizes.acceptWarmup + sizes.acceptRequests;
  if (accepted !== expected || floorAccepted !== expected) {
    throw new Error(
      `accept: ${expected} accepts answered 200; Fulfil holds ${accepted} accepted orders, the floor ${floorAccepted}`,
    );
  }
  addRow({
    scenario: `accept over HTTP, 1 fresh order x 2 lines per request, ${database.label}`,
    // The server's CPU time per measured request: what the work costs, however loaded the machine.
    fulfil: `${describeLoad(ours)}, ${ourCpu.toFixed(2)} ms CPU/request`,
    floor: `${describeLoad(floor)}, ${floorCpu.toFixed(2)} ms CPU/request`,
    ratio: ratioOf(ours.requestsPerSecond, floor.requestsPerSecond),
    target: database.kind === 'sqlite' ? '≥ 0.5' : '—',
  });
}
