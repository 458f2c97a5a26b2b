/**
 * Moves some of the demo's orders along, so that every queue has something in it: the seed
 * (examples/demo-seed.json) leaves all orders where intake puts them. Acts through the engine
 * with the seed's own partner and ERP tokens, so the audit trail reads as if they had called the
 * REST API. `fulfil serve` never runs this; run it yourself after seeding.
 *
 *   pnpm fulfil seed examples/demo-seed.json        # or: pnpm start (then stop it, or not)
 *   npx tsx examples/advance-demo.ts [data/fulfil.db]
 *
 * Each run moves more orders along.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEngine, type Engine, type OrderResource, type QueueName } from '@fulfil/core';
import { openSqliteRepository } from '@fulfil/storage-sqlite';

const SEED = new URL('./demo-seed.json', import.meta.url);

interface DemoSeed {
  stores: { code: string; tokens: { name: string; token: string }[] }[];
}

export type QueueCounts = Record<QueueName, number>;

const QUEUES: QueueName[] = [
  'pending_accept',
  'pending_allocation',
  'pending_shipment',
  'pending_invoice',
  'failed',
];

const every = (order: OrderResource) =>
  order.items.map((item) => ({ item_id: item.id, qty: item.qty }));

/** How many orders each queue lists, as the operator sees them (first page). */
export async function queueCounts(engine: Engine, store: string): Promise<QueueCounts> {
  const counts = {} as QueueCounts;
  for (const queue of QUEUES) {
    counts[queue] = (await engine.poll(engine.operator(store), queue)).length;
  }
  return counts;
}

/**
 * Accepts, rejects (rerouting to Turin), allocates, ships (one partially) and invoices a few
 * orders of the demo store, each through the token of the integrator who would do it.
 */
export async function advanceDemo(
  engine: Engine,
  seed: DemoSeed,
  log: (line: string) => void = console.log,
): Promise<QueueCounts> {
  const store = seed.stores[0];
  if (!store) throw new Error('the seed has no store');
  const secret = (name: string) => {
    const token = store.tokens.find((candidate) => candidate.name === name);
    if (!token) throw new Error(`the seed has no token "${name}"`);
    return token.token;
  };
  const partner = await engine.authenticate(store.code, secret('partner-milan'));
  const erp = await engine.authenticate(store.code, secret('erp'));

  // Milan 3PL: accept most of what waits, turn one order down and part of another. Turned-down
  // items are rerouted to the next warehouse with stock (Turin).
  const toAccept = await engine.poll(partner, 'pending_accept');
  for (const order of toAccept.slice(0, 8)) {
    await engine.accept(partner, {
      order: { order_id: order.fulfillment_order_number, items: every(order) },
    });
    log(`partner-milan accepted ${order.fulfillment_order_number}`);
  }
  const [rejected, split] = toAccept.slice(8).filter((order) => order.items.length > 1);
  if (rejected) {
    await engine.reject(partner, {
      order: {
        order_id: rejected.fulfillment_order_number,
        items: rejected.items.map((item) => ({ item_id: item.id })),
      },
    });
    log(`partner-milan rejected ${rejected.fulfillment_order_number} (rerouted)`);
  }
  if (split) {
    const items = split.items.map((item, index) => ({
      item_id: item.id,
      qty: index === 0 ? item.qty : 0,
    }));
    await engine.accept(partner, { order: { order_id: split.fulfillment_order_number, items } });
    log(
      `partner-milan accepted the first item of ${split.fulfillment_order_number}, rejected the rest`,
    );
  }

  // ERP: allocate stock for most accepted orders, the courier warehouse's included (`fulfil
  // serve` then books those with the simulated courier, which refuses ESPRESSO-PRO: they end up
  // in the failed queue after three attempts).
  for (const order of (await engine.poll(erp, 'pending_allocation')).slice(0, 9)) {
    await engine.allocate(erp, {
      allocation: { order_id: order.fulfillment_order_number, items: every(order) },
    });
    log(`erp allocated ${order.fulfillment_order_number}`);
  }

  // Milan 3PL: ship four orders in full and the first item of a fifth.
  const toShip = await engine.poll(partner, 'pending_shipment');
  for (const order of toShip.slice(0, 4)) {
    await engine.ship(partner, {
      shipment: {
        order_id: order.fulfillment_order_number,
        items: every(order),
        carrier_title: 'BRT',
        carrier_tracking_number: `BRT-${order.fulfillment_order_number}`,
      },
    });
    log(`partner-milan shipped ${order.fulfillment_order_number}`);
  }
  const partial = toShip.slice(4).find((order) => order.items.length > 1);
  if (partial) {
    await engine.ship(partner, {
      shipment: {
        order_id: partial.fulfillment_order_number,
        items: every(partial).slice(0, 1),
        tracks: [
          {
            carrier_code: 'gls',
            title: 'GLS',
            track_number: `GLS-${partial.fulfillment_order_number}`,
          },
        ],
      },
    });
    log(`partner-milan shipped part of ${partial.fulfillment_order_number}`);
  }

  // ERP: invoice two shipped orders.
  for (const [index, order] of (await engine.poll(erp, 'pending_invoice')).slice(0, 2).entries()) {
    await engine.invoice(erp, {
      invoice: {
        order_id: order.fulfillment_order_number,
        items: order.items.map((item) => ({ item_id: item.id })),
        invoice_number: `FT-DEMO-${String(index + 1).padStart(4, '0')}-${order.fulfillment_order_number}`,
        shipping_amount_incl_tax: order.shipping_amount ?? 0,
      },
    });
    log(`erp invoiced ${order.fulfillment_order_number}`);
  }
  return queueCounts(engine, store.code);
}

async function run(): Promise<void> {
  const file = resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2] ?? 'data/fulfil.db');
  if (!existsSync(file)) {
    console.error(`${file} does not exist: run \`pnpm fulfil seed examples/demo-seed.json\` first`);
    process.exitCode = 1;
    return;
  }
  const seed = JSON.parse(await readFile(SEED, 'utf8')) as DemoSeed;
  const engine = createEngine({ repository: await openSqliteRepository(file) });
  try {
    const code = seed.stores[0]?.code;
    if (!(await engine.listStores()).some((store) => store.code === code)) {
      throw new Error(`${file} has no store "${code}": load examples/demo-seed.json into it first`);
    }
    const counts = await advanceDemo(engine, seed);
    console.log(`\nQueues of store "${seed.stores[0]?.code}" now (first page):`, counts);
  } finally {
    await engine.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
