import { summarizeStatement } from '@fulfil/storage-kysely';
import { describe, expect, test } from 'vitest';

/** `db.query.summary`: operations and the tables they name, no literal, no function. */
describe('summarizeStatement', () => {
  test.each([
    ['select * from "stores" where "code" = ?', 'SELECT', 'SELECT stores'],
    [
      'select o.* from fulfillment_orders o join order_items i on i.order_id = o.id for update',
      'SELECT',
      'SELECT fulfillment_orders order_items',
    ],
    [
      'insert into "stock" ("sku", "qty") values (?, ?) on conflict ("sku") do update set "qty" = excluded.qty',
      'INSERT',
      'INSERT stock',
    ],
    [
      'insert into audit_events (a, b) select * from unnest($1::bigint[], $2::text[])',
      'INSERT',
      'INSERT audit_events SELECT',
    ],
    [
      'update "queue_entries" set "queue" = ? where "order_id" = ?',
      'UPDATE',
      'UPDATE queue_entries',
    ],
    ['delete from queue_entries where id = 1', 'DELETE', 'DELETE queue_entries'],
    ["select * from tokens where name = 'ada@example.com'", 'SELECT', 'SELECT tokens'],
    ['begin immediate', 'BEGIN', 'BEGIN'],
    ['savepoint fulfil_action', 'SAVEPOINT', 'SAVEPOINT'],
    ['pragma data_version', 'PRAGMA', 'PRAGMA'],
  ])('%s', (sql, operation, summary) => {
    expect(summarizeStatement(sql)).toEqual({ operation, summary });
  });

  test('a quoted literal never reaches the summary', () => {
    const { summary } = summarizeStatement('select \'Ada Lovelace\' from "stores"');
    expect(summary).toBe('SELECT stores');
  });
});
