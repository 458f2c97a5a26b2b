/**
 * One of several processes hammering one SQLite file (see multi-process.test.ts). Opens the file
 * (migrating it, possibly at the same moment as the others), then runs `rounds` write
 * transactions that each read-lock-increment-save one order, adjust one stock row and draw a
 * sequence number. Prints the drawn numbers as JSON.
 */
import { fixtures } from '@fulfil/core/testing';
import { openSqliteRepository } from '@fulfil/storage-sqlite';

const [filename, roundsText] = process.argv.slice(2);
if (!filename || !roundsText) throw new Error('usage: multi-process-worker <file> <rounds>');

const repository = await openSqliteRepository({ filename });
try {
  const storeId = await repository.transaction(async (tx) => {
    const store =
      (await tx.findStore('default')) ??
      (await tx.upsertStore('default', fixtures.storeSettings()));
    if (!(await tx.findOrder(store.id, 'SO-1-1'))) {
      await tx.upsertWarehouse(fixtures.warehouse(store.id, 'WH-A'));
      await tx.insertOrder(
        fixtures.order({
          store_id: store.id,
          sales_order_number: 'SO-1',
          fulfillment_order_number: 'SO-1-1',
          items: ['pending_shipment'],
        }),
      );
    }
    return store.id;
  });

  const drawn: number[] = [];
  for (let round = 0; round < Number(roundsText); round++) {
    drawn.push(
      await repository.transaction(async (tx) => {
        const order = await tx.lockOrder(storeId, 'SO-1-1');
        if (!order) throw new Error('order missing');
        await tx.adjustStock(storeId, [
          { warehouse_code: 'WH-A', sku: 'S1', on_hand: 1, reserved: 0 },
        ]);
        await tx.saveOrder({
          ...order,
          courier: { ...order.courier, attempts: order.courier.attempts + 1 },
        });
        return tx.nextFulfillmentSequence(storeId, 'SO-1');
      }),
    );
  }
  process.stdout.write(JSON.stringify(drawn));
} finally {
  await repository.close();
}
