import type { Engine, Repository } from '@fulfil/core';
import { readStoredState } from '@fulfil/core/testing';
import { expect } from 'vitest';
import { isRaceRequest, type Placed, RECEIVED, SKUS } from './holds-race-plan.js';

/**
 * What a run of the holds race must have left, whatever the interleaving, read from the database
 * itself: core's invariants over every order stored (every reservation matches a line that holds
 * one); stock on hand is what was received less what shipped; for every line exactly one of
 * shipped or canceled, or neither yet; every timeline entry of the race is one answered request's,
 * of the action that request asked for, never two for one request; each line that shipped or was
 * canceled has exactly the one entry that did it; an open cancellation request names only lines
 * still in the flow.
 */
export interface RaceRun {
  /** The run's orders. */
  placed: readonly Placed[];
  /** Request id → the timeline action it may have written, for the requests answered 200. */
  answered: ReadonlyMap<string, string>;
  /** Every fulfillment order of the store, over all runs so far: what stock is summed over. */
  every: readonly string[];
}

/**
 * Checks a run through `repository` and `engine` (over the database the servers share), and adds
 * to `reached` what the run came to: the actions of its timeline entries, and a ship over an
 * open cancellation request.
 */
export async function expectRaceKeptTheRules(
  repository: Repository,
  engine: Engine,
  { placed, answered, every }: RaceRun,
  reached: Set<string>,
): Promise<void> {
  const state = await readStoredState(repository, 'default', [...every]);
  expect(state.violations).toEqual([]);
  for (const sku of SKUS) {
    const shipped = state.orders
      .flatMap((order) => order.items)
      .filter((line) => line.sku === sku)
      .filter((line) => line.status === 'pending_invoice' || line.status === 'invoiced')
      .reduce((sum, line) => sum + line.qty, 0);
    const level = state.stock.find((row) => row.sku === sku && row.warehouse_code === 'WH-A');
    expect(level?.on_hand, sku).toBe(RECEIVED - shipped);
  }

  for (const target of placed) {
    const order = state.orders.find((o) => o.fulfillment_order_number === target.number);
    if (!order) throw new Error(`${target.number} is not stored`);
    const history = await engine.getOrderHistory('default', target.number);
    const entries = history.audit.filter((event) => isRaceRequest(event.request_id));
    for (const event of entries) {
      reached.add(event.action);
      if (event.details.cancellation_rejected !== undefined) reached.add('shipped over a request');
      if (event.details.cancellation_still_requested !== undefined)
        reached.add('shipped part of a request');
    }
    // Each entry is one answered request's, and no request wrote two.
    const ids = entries.map((event) => event.request_id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const event of entries) {
      expect(answered.get(event.request_id as string), event.action).toBe(event.action);
    }
    const inShipments = new Set(
      order.shipments.flatMap((shipment) => shipment.items.map((entry) => entry.item_id)),
    );
    for (const line of order.items) {
      const shipped = inShipments.has(line.id);
      // Exactly one of shipped or canceled, never both.
      expect(shipped && line.status === 'canceled', `line ${line.id}`).toBe(false);
      const shipEntries = entries.filter(
        (event) =>
          event.action === 'ship' &&
          (event.details.items as { item_id: number }[]).some((e) => e.item_id === line.id),
      );
      expect(shipEntries, `ship entries of line ${line.id}`).toHaveLength(shipped ? 1 : 0);
      const cancelEntries = entries.filter(
        (event) =>
          (event.action === 'cancel' || event.action === 'accept_cancellation') &&
          (event.details.items as number[]).includes(line.id),
      );
      expect(cancelEntries, `cancel entries of line ${line.id}`).toHaveLength(
        line.status === 'canceled' ? 1 : 0,
      );
    }
    // What a ship refused names only lines that shipped.
    for (const request of order.cancellation_requests) {
      if (request.message !== 'shipped' || request.answered_by !== null) continue;
      for (const id of request.item_ids)
        expect(inShipments.has(id), `refused line ${id}`).toBe(true);
    }
    // A request still open names lines still in the flow.
    const open = order.cancellation_requests.at(-1);
    if (open?.status === 'open') {
      for (const id of open.item_ids) {
        const line = order.items.find((item) => item.id === id);
        expect(['pending_allocation', 'pending_shipment'], `requested line ${id}`).toContain(
          line?.status,
        );
      }
    }
  }
}
