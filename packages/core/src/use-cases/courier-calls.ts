import { resolveCarrier, splitLegacyEndpoint } from '../domain/carrier-accounts.js';
import type { CourierSettings, Store } from '../domain/types.js';
import {
  boundCarrierText,
  type Courier,
  type CourierCallEvent,
  type CourierCallOptions,
  type CourierFailure,
  type CourierOutcome,
} from '../ports/courier.js';
import { courierProbe, courierSettle } from '../tracing/courier-spans.js';
import type { EngineDeps } from './deps.js';

/** A store's courier as one attempt uses it: every call rate limited, bounded by one deadline. */
export interface CourierSession {
  carrier: string;
  call<T extends object>(
    op: CourierCallEvent['op'],
    run: (courier: Courier, options: CourierCallOptions) => Promise<CourierOutcome<T>>,
  ): Promise<CourierOutcome<T>>;
  close(): void;
}

const refusal = (code: string, message: string): CourierFailure => ({
  kind: 'permanent',
  code,
  message: boundCarrierText(message),
});

/** The store's courier, or why there is none (then nothing is sent). */
function buildCourier(
  deps: EngineDeps,
  chosen: ReturnType<typeof resolveCarrier>,
  settings: CourierSettings,
): Courier | CourierFailure {
  if ('problem' in chosen) return refusal('courier_not_configured', chosen.problem);
  const { type } = chosen.account;
  const factory = Object.hasOwn(deps.couriers, type) ? deps.couriers[type] : undefined;
  if (!factory)
    return refusal('courier_not_configured', `no courier of type "${type}" is registered`);
  try {
    return factory(settings, chosen.account);
  } catch (error) {
    return refusal('courier_configuration', error instanceof Error ? error.message : String(error));
  }
}

/**
 * Opens the store's courier for one attempt whose calls must all end by `deadlineMs` from now:
 * the claim's lease minus a margin, so that no call may still land once another dispatcher can
 * take over. A courier that cannot be built (no carrier account the installation declares, an
 * unknown type, a secret missing from the environment) answers every call `permanent`, which the
 * operator sees on the order; nothing is sent.
 */
export function openCourierSession(
  deps: EngineDeps,
  store: Store,
  deadlineMs: number,
): CourierSession {
  const { courier: settings } = splitLegacyEndpoint(store.settings.courier);
  const chosen = resolveCarrier(store.settings.courier, deps.carrierAccounts, store.code);
  const carrier = 'account' in chosen ? chosen.account.type : settings.type;
  const deadline = new AbortController();
  const deadlineAt = new Date(deps.clock.now().getTime() + deadlineMs);
  const timer = setTimeout(() => deadline.abort(), Math.max(0, deadlineMs));
  const courier = buildCourier(deps, chosen, settings);
  /** One call: a turn of the rate limiter, then the courier's request, bounded by the deadline. */
  const send = async <T extends object>(
    available: Courier,
    op: CourierCallEvent['op'],
    run: (courier: Courier, options: CourierCallOptions) => Promise<CourierOutcome<T>>,
  ): Promise<CourierOutcome<T>> => {
    const started = performance.now();
    let outcome: CourierOutcome<T>;
    const rate = settings.rate_per_second ?? 5;
    if (!(await deps.rateLimiter.take(`${carrier}/${available.account}`, rate, deadline.signal))) {
      // Nothing was sent: the deadline came while waiting for a turn.
      return {
        kind: 'retriable',
        throttled: true,
        code: 'rate_limited',
        message: 'no turn before the deadline',
      };
    }
    try {
      outcome = await run(available, { signal: deadline.signal, deadline: deadlineAt });
    } catch (error) {
      outcome = {
        kind: 'unknown',
        message: boundCarrierText(error instanceof Error ? error.message : String(error)),
      };
    }
    deps.onCourierCall?.({ carrier, op, kind: outcome.kind, ms: performance.now() - started });
    return outcome;
  };
  return {
    carrier,
    async call(op, run) {
      if ('kind' in courier) return courier;
      if (deps.tracing === false) return send(courier, op, run);
      return courierProbe.trace(
        () => ({ carrier, operation: op, store: store.code }),
        () => send(courier, op, run),
        courierSettle,
      );
    },
    close() {
      clearTimeout(timer);
    },
  };
}
