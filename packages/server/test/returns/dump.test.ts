import { createEngine, ManualClock, type OperatorPrincipal } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { expect, it } from 'vitest';
import { dumpText, importedSqlite } from '../databases/store-dump.js';

const ADMIN: OperatorPrincipal = { name: 'a', role: 'admin', store_code: null, request_id: null };

it('a store dump carries returns and their quarantine: the moved store shows and checks them the same', async () => {
  const from = await openSqliteRepository(':memory:');
  const engine = createEngine({ repository: from, clock: new ManualClock('2026-08-01T09:00:00Z') });
  await engine.loadSeed(fixtures.seed({ orders: [fixtures.salesOrder('300')] }));
  const op = engine.operator('default');
  const order = await engine.getOrder('default', '300-1');
  const items = order.items.map((item) => ({ id: item.id, qty: item.qty }));
  const lines = items.map((item) => ({ item_id: item.id, qty: item.qty }));
  await engine.accept(op, { order: { order_id: '300-1', items: lines } });
  await engine.allocate(op, { allocation: { order_id: '300-1', items: lines } });
  await engine.ship(op, { shipment: { order_id: '300-1', items: lines } });
  const shipped = { sales_order_number: '300', fulfillment_order_number: '300-1', items };
  const opened = await engine.createReturn(op, { return: fixtures.returnOf('RMA-D', shipped) });
  await engine.receiveReturn(op, {
    receipt: fixtures.receiptOf(opened.return, 'RCV-D', 'qty_quarantined'),
  });
  const before = await engine.admin.returns(ADMIN, 'default', {});
  const stock = await engine.admin.listStock(ADMIN, 'default', {});

  const text = await dumpText(from);
  expect(text).toContain('"table":"returns"');
  expect(text).toContain('"table":"return_quarantine"');
  await engine.close();

  const to = await importedSqlite(text);
  const moved = createEngine({ repository: to });
  try {
    expect(await moved.admin.returns(ADMIN, 'default', {})).toEqual(before);
    expect(await moved.admin.listStock(ADMIN, 'default', {})).toEqual(stock);
    expect(await moved.admin.checkReservations(ADMIN, 'default')).toEqual({
      mismatches: [],
      quarantine: [],
    });
    // Its queue is still there: the ERP's pending_credit lists it.
    const page = await moved.pollReturns(moved.operator('default'), 'pending_credit');
    expect(page.documents.map((text) => JSON.parse(text).rma_number)).toEqual(['RMA-D']);
  } finally {
    await moved.close();
  }
});
