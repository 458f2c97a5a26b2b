import type { CourierCallEvent, CourierOutcome } from '../ports/courier.js';
import { Probe } from './probe.js';

/** What the `fulfil:courier` channel tells of a carrier call (and its span's attributes). */
export interface CourierMessage {
  /** The courier type: `simulated`, `http`, `shipengine`, … */
  carrier: string;
  operation: CourierCallEvent['op'];
  store: string;
}

/**
 * A carrier call, its wait for the rate limiter included. Its span is the active one while the
 * courier's request is sent: an HTTP courier sends it on as `traceparent`.
 */
export const courierProbe = new Probe<CourierMessage>({
  channel: 'fulfil:courier',
  scope: '@fulfil/core',
  kind: 'client',
  spanName: (message) => `courier ${message.operation}`,
  attributes: (message) => ({
    'fulfil.courier.carrier': message.carrier,
    'fulfil.courier.operation': message.operation,
    'fulfil.store': message.store,
  }),
});

const CODE = /^[A-Za-z0-9_.-]{1,64}$/;

export const courierSettle = {
  result: (outcome: CourierOutcome<object>) => ({
    'fulfil.outcome': outcome.kind,
    // The carrier's code only: its message may quote the address it refused.
    ...('code' in outcome && typeof outcome.code === 'string' && CODE.test(outcome.code)
      ? { 'fulfil.courier.code': outcome.code }
      : {}),
  }),
};
