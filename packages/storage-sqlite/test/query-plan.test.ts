import { fixtures } from '@fulfil/core/testing';
import {
  explainPollQuery,
  openSqliteRepository,
  type SqliteRepository,
} from '@fulfil/storage-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const { order, storeSettings, warehouse } = fixtures;

describe('sqlite polling query plan', () => {
  let repository: SqliteRepository;
  let storeId: number;

  beforeAll(async () => {
    repository = await openSqliteRepository({ filename: ':memory:' });
    storeId = await repository.transaction(async (tx) => {
      const store = await tx.upsertStore('default', storeSettings());
      for (const code of ['WH-A', 'WH-B', 'WH-C'])
        await tx.upsertWarehouse(warehouse(store.id, code));
      // 400 orders, 9 in 10 of them finished (invoiced): they must cost polling nothing.
      for (let i = 0; i < 400; i++) {
        const finished = i % 10 !== 0;
        await tx.insertOrder(
          order({
            store_id: store.id,
            warehouse_code: ['WH-A', 'WH-B', 'WH-C'][i % 3],
            items: finished ? ['invoiced', 'invoiced'] : ['pending_accept', 'pending_shipment'],
            updated_at: `2026-01-${String(1 + (i % 28)).padStart(2, '0')} 10:00:00`,
          }),
        );
      }
      return store.id;
    });
  });

  afterAll(() => repository.close());

  const cases = {
    'a plain page': {},
    'a later page': { page: 3, page_size: 10 },
    'since a date': { since: '2026-01-15 00:00:00' },
    'a warehouse scope': { warehouses: ['WH-A', 'WH-C'] },
    'scope and date': { warehouses: ['WH-B'], since: '2026-01-15 00:00:00' },
  } as const;

  for (const [name, overrides] of Object.entries(cases)) {
    it(`searches the queue_entries index, never scans a table: ${name}`, async () => {
      const query = {
        store_id: storeId,
        queue: 'pending_accept' as const,
        page: 1,
        page_size: 100,
        since: null,
        warehouses: null,
        ...overrides,
      };
      const statements = await explainPollQuery(repository, query);
      // Two statements: the page's versions with the horizon, then the page of stored
      // documents; both find the page through the index, and no order, item, shipment or
      // invoice row is read.
      expect(statements).toHaveLength(2);
      const [versions, documents] = statements;
      expect(versions?.sql).toMatch(/json_group_array/);
      expect(documents?.sql).toMatch(
        /select "order_id", "change_id", "document" from "queue_entries"/,
      );
      for (const statement of statements) {
        expect(statement.plan.join('\n')).toMatch(
          /SEARCH queue_entries USING (COVERING )?INDEX queue_entries_poll\w* \(store_id=\? AND queue=\?/,
        );
        for (const line of statement.plan) {
          // Not even `SCAN … USING INDEX`: a full pass over an index grows with the table too.
          // What the versions statement scans is its own subqueries' rows and the one-row clock.
          if (/^SCAN (page|v|h|fulfil_change_clock)$/.test(line)) continue;
          expect(line, statement.sql).not.toMatch(/\bSCAN\b/);
          expect(line, statement.sql).toMatch(
            /^(SEARCH \w+ USING|USE TEMP B-TREE|CO-ROUTINE|MATERIALIZE)/,
          );
        }
      }
      if (query.warehouses === null) {
        // The page's versions come from the poll index alone, without reading a row.
        expect(versions?.plan.join('\n')).toMatch(/USING COVERING INDEX queue_entries_poll /);
      }
      const page = await repository.transaction((tx) => tx.pollDocuments(query), 'read');
      expect(page.length).toBeGreaterThan(0);
    });
  }
});
