import type { CourierSettings } from '../domain/types.js';
import type {
  Courier,
  CourierCallOptions,
  CourierFactory,
  CourierOutcome,
  IssuedLabel,
} from './courier.js';

/** One label the simulated carrier issued. */
export interface LedgerEntry {
  carrier_label_id: string;
  reference: string;
  tracking_number: string;
  status: 'live' | 'voided';
}

/**
 * Every label the simulated carrier ever issued: what tests hold the engine to ("exactly one live
 * label per parcel"). Synchronous, so a ledger kept in a file survives a `kill -9` of the process
 * that wrote it.
 */
export interface LabelLedger {
  /** Records a new live label under `reference`. */
  issue(reference: string): LedgerEntry;
  /** Marks the label voided; false when the carrier never issued it. */
  void(carrierLabelId: string): boolean;
  entries(): LedgerEntry[];
}

export class MemoryLabelLedger implements LabelLedger {
  readonly #entries: LedgerEntry[] = [];

  issue(reference: string): LedgerEntry {
    const entry = newLedgerEntry(reference, this.#entries.length + 1);
    this.#entries.push(entry);
    return entry;
  }

  void(carrierLabelId: string): boolean {
    const entry = this.#entries.find((e) => e.carrier_label_id === carrierLabelId);
    if (entry) entry.status = 'voided';
    return entry !== undefined;
  }

  entries(): LedgerEntry[] {
    return this.#entries.map((entry) => ({ ...entry }));
  }
}

/** The `serial`-th label of the ledger, for `reference`. */
export function newLedgerEntry(reference: string, serial: number): LedgerEntry {
  const digest = [...reference].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 7);
  return {
    carrier_label_id: `se-${serial}`,
    reference,
    tracking_number: `SIM${digest.toString(36).toUpperCase()}${serial}`,
    status: 'live',
  };
}

/**
 * What the simulated carrier does with one call, for tests (docs/couriers.md):
 * - `throttle`: 429 with a wait; `server_error`: 500; `refuse`: a permanent refusal;
 * - `timeout_after_create`: issues the label, then the answer never comes (`unknown`);
 * - `drop`: the connection drops before the carrier saw the request (`unknown`, nothing issued);
 * - `slow`: answers after `slow_ms`, or gives up as `unknown` without issuing when the deadline
 *   comes first;
 * - `hang`: issues the label and answers only when `release()` is called, ignoring the deadline,
 *   as a dispatcher that stopped mid-call would.
 */
export type SimulatedFault =
  | 'throttle'
  | 'server_error'
  | 'refuse'
  | 'timeout_after_create'
  | 'drop'
  | 'slow'
  | 'hang';

export interface SimulatedCall {
  op: 'create' | 'void' | 'track' | 'find';
  /** The label reference (create, find) or the carrier's label id (void, track). */
  target: string;
}

export interface SimulatedCourierOptions {
  ledger?: LabelLedger;
  /** Picks the fault of each call, or none. */
  faults?: (call: SimulatedCall) => SimulatedFault | null;
  /** The wait a `throttle` answer names; default 1000 ms. */
  throttle_wait_ms?: number;
  /** How long a `slow` answer takes; default 50 ms. */
  slow_ms?: number;
  /** Told when a `hang` call has issued its label and stopped answering. */
  onHang?: () => void;
}

export interface SimulatedCarrier {
  factory: CourierFactory;
  ledger: LabelLedger;
  /** Lets every `hang` call under way answer (`unknown`). */
  release(): void;
}

function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((done) => {
    if (signal.aborted) return done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        done(false);
      },
      { once: true },
    );
  });
}

function asLabel(entry: LedgerEntry): IssuedLabel {
  return {
    carrier_label_id: entry.carrier_label_id,
    tracking_number: entry.tracking_number,
    tracking_url: `https://track.example/${entry.tracking_number}`,
    document: `^XA^FO50,50^FD${entry.tracking_number}^FS^XZ`,
    document_format: 'zpl',
    document_url: null,
  };
}

/**
 * A simulated carrier: a stateful fake with a ledger of every label it issues, which never
 * deduplicates by reference (the worst case: each create buys a new label), and fault switches.
 */
export function createSimulatedCarrier(options: SimulatedCourierOptions = {}): SimulatedCarrier {
  const ledger = options.ledger ?? new MemoryLabelLedger();
  let releaseHung: (() => void)[] = [];

  /** Runs the fault of the call, if any; answers the outcome it ends in, or null to go on. */
  async function fault(
    call: SimulatedCall,
    { signal }: CourierCallOptions,
    effect: () => void,
  ): Promise<CourierOutcome<never> | null> {
    switch (options.faults?.(call) ?? null) {
      case null:
        return null;
      case 'throttle':
        return {
          kind: 'retriable',
          throttled: true,
          wait_ms: options.throttle_wait_ms ?? 1000,
          code: '429',
          message: 'rate limit exceeded',
        };
      case 'server_error':
        return { kind: 'retriable', code: '500', message: 'internal server error' };
      case 'refuse':
        return { kind: 'permanent', code: 'invalid_address', message: 'the address is invalid' };
      case 'drop':
        return { kind: 'unknown', message: 'socket hang up' };
      case 'timeout_after_create':
        effect();
        return { kind: 'unknown', message: 'the carrier did not answer in time' };
      case 'slow':
        return (await sleep(options.slow_ms ?? 50, signal))
          ? null
          : { kind: 'unknown', message: 'the carrier did not answer in time' };
      case 'hang':
        effect();
        await new Promise<void>((done) => {
          releaseHung.push(done);
          options.onHang?.();
        });
        return { kind: 'unknown', message: 'the carrier did not answer' };
    }
  }

  const factory: CourierFactory = (settings: CourierSettings): Courier => ({
    account: 'simulated',
    async createShipment({ reference, parcel }, call) {
      if (settings.delay_ms > 0 && !(await sleep(settings.delay_ms, call.signal)))
        return { kind: 'unknown', message: 'the carrier did not answer in time' };
      const refused = parcel.items.find((item) => settings.fail_skus.includes(item.sku));
      if (refused)
        return {
          kind: 'permanent',
          code: 'refused_sku',
          message: `simulated courier refuses sku ${refused.sku}`,
        };
      let issued: LedgerEntry | undefined;
      const issue = () => {
        issued ??= ledger.issue(reference);
      };
      const failed = await fault({ op: 'create', target: reference }, call, issue);
      if (failed) return failed;
      return { kind: 'ok', label: asLabel(issued ?? ledger.issue(reference)) };
    },
    async voidLabel(carrierLabelId, call) {
      let known = true;
      const failed = await fault({ op: 'void', target: carrierLabelId }, call, () => {
        known = ledger.void(carrierLabelId);
      });
      if (failed) return failed;
      known = ledger.void(carrierLabelId);
      return known
        ? { kind: 'ok' }
        : { kind: 'permanent', code: 'not_found', message: `no label ${carrierLabelId}` };
    },
    async track(carrierLabelId, call) {
      const failed = await fault({ op: 'track', target: carrierLabelId }, call, () => {});
      if (failed) return failed;
      const entry = ledger.entries().find((e) => e.carrier_label_id === carrierLabelId);
      if (!entry)
        return { kind: 'permanent', code: 'not_found', message: `no label ${carrierLabelId}` };
      return {
        kind: 'ok',
        status: entry.status === 'live' ? 'label_created' : 'voided',
        events: [],
      };
    },
    async findShipment(reference, call) {
      const failed = await fault({ op: 'find', target: reference }, call, () => {});
      if (failed) return failed;
      const live = ledger.entries().filter((e) => e.reference === reference && e.status === 'live');
      return { kind: 'ok', labels: live.map(asLabel) };
    },
  });

  return {
    factory,
    ledger,
    release() {
      const waiting = releaseHung;
      releaseHung = [];
      for (const done of waiting) done();
    },
  };
}

/**
 * The built-in `simulated` courier (docs/couriers.md): issues a label per parcel with a generated
 * tracking number, except when a line's sku is in `fail_skus`, to rehearse the failure path. It
 * answers after `delay_ms`, to rehearse a slow courier (and dispatchers racing on one order).
 */
export const simulatedCourier: CourierFactory = createSimulatedCarrier().factory;
