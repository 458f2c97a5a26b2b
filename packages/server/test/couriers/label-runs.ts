import {
  type CourierLabel,
  createEngine,
  createSimulatedCarrier,
  DomainError,
  type Engine,
  type LedgerEntry,
  ManualClock,
  type Repository,
  type SimulatedFault,
} from '@fulfil/core';
import { fixtures, seededRandom } from '@fulfil/core/testing';

/**
 * Randomized courier dispatch runs against a stateful fake carrier that keeps a ledger of every
 * label it issues and never deduplicates by reference (docs/couriers.md, "at most one label").
 * Each run mixes every fault of the simulated carrier, lease expiry (a dispatcher stuck in a call
 * while the clock runs past its claim), two dispatchers racing, cancels, abandons and requeues;
 * then it lets the dispatcher finish without faults and checks the ledger against the database.
 */

/** The seeded generator of the runs, so a failing run is replayed from its seed. */
export const prng = seededRandom;

const FAULTS: readonly SimulatedFault[] = [
  'throttle',
  'server_error',
  'refuse',
  'timeout_after_create',
  'drop',
  'slow',
  'hang',
];

export interface RunFigures {
  runs: number;
  orders: number;
  shipped: number;
  canceled: number;
  failed: number;
  labels_issued: number;
  labels_voided: number;
  faults: Record<string, number>;
  races: number;
  lease_expiries: number;
}

export function emptyFigures(): RunFigures {
  return {
    runs: 0,
    orders: 0,
    shipped: 0,
    canceled: 0,
    failed: 0,
    labels_issued: 0,
    labels_voided: 0,
    faults: {},
    races: 0,
    lease_expiries: 0,
  };
}

const LEASE_MS = 120_000;

/**
 * One run on `repositories` (two handles on one database: each dispatcher has its own engine,
 * so its own connection and rate limiter). Store codes carry the seed, so runs share a database.
 * Throws with the seed in the message when the ledger and the database disagree.
 */
export async function labelRun(
  seed: number,
  repositories: readonly [Repository, Repository],
  figures: RunFigures,
): Promise<void> {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  let faultsOn = true;
  // A call hangs only in a dispatcher the run leaves stuck on purpose (the others are awaited).
  let hangs = false;
  const faultRate = 0.15 + random() * 0.4;
  let hung = () => {};
  const carrier = createSimulatedCarrier({
    slow_ms: 1,
    onHang: () => hung(),
    faults: () => {
      if (!faultsOn || random() >= faultRate) return null;
      const fault = hangs && random() < 0.5 ? 'hang' : pick(FAULTS);
      if (fault === 'hang' && !hangs) return null;
      figures.faults[fault] = (figures.faults[fault] ?? 0) + 1;
      return fault;
    },
  });
  const clock = new ManualClock('2026-05-01T08:00:00Z');
  const engines = repositories.map((repository) =>
    createEngine({
      repository,
      clock,
      couriers: { fake: carrier.factory },
      carrierAccounts: { fake: { type: 'fake' } },
      courier: { retry_base_ms: 1_000, lease_ms: LEASE_MS },
    }),
  ) as [Engine, Engine];
  const [engine] = engines;
  const store = `run${seed}`;
  const orderCount = 1 + Math.floor(random() * 3);
  const orders = Array.from({ length: orderCount }, (_, index) => ({
    number: `${seed}-${index}`,
    lines: 1 + Math.floor(random() * 3),
  }));
  await engine.loadSeed({
    stores: [
      {
        code: store,
        settings: {
          courier: {
            account: 'fake',
            max_attempts: 1 + Math.floor(random() * 4),
            // The limiter is tested on its own; here it would only make the runs wait.
            rate_per_second: 10_000,
          },
        },
        warehouses: [{ code: 'HQ', name: 'HQ', fulfilled_by: 'courier' }],
        stock: [1, 2, 3].map((n) => ({ warehouse_code: 'HQ', sku: `SKU-${n}`, qty: 100 })),
        orders: orders.map(({ number, lines }) =>
          fixtures.salesOrder(
            number,
            Array.from({ length: lines }, (_, n) => ({ sku: `SKU-${n + 1}`, qty: 1 })),
            { warehouse_code: 'HQ' },
          ),
        ),
      },
    ],
  });
  const numbers = orders.map(({ number }) => `${number}-1`);
  for (const number of numbers) {
    const order = await engine.getOrder(store, number);
    await engine.allocate(engine.operator(store), {
      allocation: { order_id: number, items: order.items.map((item) => ({ item_id: item.id })) },
    });
  }

  const stuck: Promise<unknown>[] = [];
  const operator = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      // Refused interventions (an order already shipped, not failed, …) are part of the mix.
      if (!(error instanceof DomainError)) throw error;
    }
  };
  const steps = 6 + Math.floor(random() * 12);
  for (let step = 0; step < steps; step++) {
    const roll = random();
    const number = pick(numbers);
    if (roll < 0.35) await pick(engines).dispatchCourier();
    else if (roll < 0.5) {
      figures.races += 1;
      await Promise.all(engines.map((e) => e.dispatchCourier()));
    } else if (roll < 0.58) {
      // A dispatcher that stops answering mid-call; the lease runs out and the other takes over.
      figures.lease_expiries += 1;
      // The clock may only pass the lease once the stuck call has issued its label and stopped
      // (or the dispatcher is done): a call that could still land would break the deadline rule
      // the engine keeps in real time (docs/couriers.md).
      hangs = true;
      const dispatched = engines[0].dispatchCourier();
      stuck.push(dispatched);
      await Promise.race([dispatched, new Promise<void>((done) => (hung = done))]);
      hangs = false;
      clock.advance(LEASE_MS + 1);
      await engines[1].dispatchCourier();
    } else if (roll < 0.65) await operator(() => engine.cancelOrder(store, number));
    else if (roll < 0.7) {
      await operator(() => engine.failOrder(store, number, 'operator says so'));
      await operator(() =>
        random() < 0.5 ? engine.abandonOrder(store, number) : engine.requeueOrder(store, number),
      );
    } else if (roll < 0.75) {
      carrier.release();
    } else clock.advance(Math.floor(random() * 40_000));
  }

  // Let everything settle: no more faults, every stuck call answers, the dispatcher runs dry.
  faultsOn = false;
  carrier.release();
  await Promise.all(stuck);
  for (let round = 0; round < 40; round++) {
    clock.advance(LEASE_MS * 30);
    const report = await engine.dispatchCourier();
    if (Object.values(report).every((list) => list.length === 0)) break;
  }
  // An order failed by the operator and neither abandoned nor requeued keeps its labels for a
  // requeue; abandon it so that the run ends with every order shipped, canceled or abandoned.
  for (const number of numbers) {
    const { failure } = await engine.getOrderHistory(store, number);
    if (failure && !failure.abandoned && !failure.reason.startsWith('courier:'))
      await operator(() => engine.abandonOrder(store, number));
  }
  for (let round = 0; round < 40; round++) {
    clock.advance(LEASE_MS * 30);
    const report = await engine.dispatchCourier();
    if (Object.values(report).every((list) => list.length === 0)) break;
  }
  await checkLedger(seed, engine, store, numbers, carrier.ledger.entries(), figures);
}

export async function checkLedger(
  seed: number,
  engine: Engine,
  store: string,
  numbers: readonly string[],
  ledger: readonly LedgerEntry[],
  figures: RunFigures,
): Promise<void> {
  const fail = (message: string, detail: unknown): never => {
    throw new Error(
      `label run seed ${seed}: ${message}\n${JSON.stringify(detail, null, 2)}\nledger: ${JSON.stringify(ledger, null, 2)}`,
    );
  };
  figures.runs += 1;
  figures.labels_issued += ledger.length;
  figures.labels_voided += ledger.filter((entry) => entry.status === 'voided').length;
  for (const number of numbers) {
    figures.orders += 1;
    const history = await engine.getOrderHistory(store, number);
    const labels: CourierLabel[] = await engine.listLabels(store, number);
    const live = ledger.filter(
      (entry) => entry.status === 'live' && entry.reference.startsWith(`${number}/`),
    );
    const parcels = history.order.items.length;
    const shipped = history.shipments.length > 0;
    if (shipped) {
      figures.shipped += 1;
      if (history.shipments.length !== 1) fail(`${number} shipped twice`, history.shipments);
      const tracks = history.shipments[0]?.tracks.map((track) => track.track_number) ?? [];
      for (let parcel = 1; parcel <= parcels; parcel++) {
        const prefix = `${number}/shipment-1/${parcel}`;
        const ofParcel = live.filter(
          (entry) => entry.reference === prefix || entry.reference.startsWith(`${prefix}-`),
        );
        if (ofParcel.length !== 1)
          fail(`${number} parcel ${parcel} has ${ofParcel.length} live labels`, { labels });
        const recorded = labels.filter(
          (row) => row.status === 'live' && row.carrier_label_id === ofParcel[0]?.carrier_label_id,
        );
        if (recorded.length !== 1) fail(`${number} parcel ${parcel}: label not recorded`, labels);
        if (!tracks.includes(ofParcel[0]?.tracking_number as string))
          fail(`${number} parcel ${parcel}: not among the shipment's tracks`, { tracks, labels });
      }
      if (live.length !== parcels) fail(`${number}: live labels beyond its parcels`, live);
    } else {
      if (history.order.status === 'canceled') figures.canceled += 1;
      else figures.failed += 1;
      if (history.order.status !== 'canceled' && history.order.status !== 'failed')
        fail(`${number} did not settle`, history);
      if (live.length > 0) fail(`${number} is ${history.order.status} with live labels`, labels);
      if (labels.some((row) => row.status !== 'voided'))
        fail(`${number}: labels left unvoided`, labels);
    }
  }
}
