import { DomainError } from '@fulfil/core';
import { describe, expect, it } from 'vitest';
import { startHttpServer } from '../../src/index.js';
import { databaseKinds, droppedAfterEach } from '../databases/open.js';

/**
 * A token's resource list names resources that exist (docs/behaviour.md): `read_sales_orders` is
 * an action, not a resource, and a token granted it would grant nothing, silently. A seed file is
 * refused naming the entry; so is the admin API's token creation.
 */

const open = droppedAfterEach();
const STORE = { code: 'default', warehouses: [{ code: 'WH-A', name: 'A' }] };

for (const kind of databaseKinds()) {
  describe(`ACL resources on ${kind.name}`, () => {
    it('a seed file naming an unknown resource is refused naming it, nothing written', async () => {
      const database = await open(kind);
      const before = await database.snapshot();
      const error = await database.engine
        .loadSeed({
          stores: [
            {
              ...STORE,
              tokens: [
                { name: 'ok', acl: 'all' },
                {
                  name: 'channel',
                  acl: ['Fulfil_SalesOrder::api_create', 'read_sales_orders'],
                },
              ],
            },
          ],
        })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('invalid_seed');
      expect((error as DomainError).parameters).toEqual([
        { fieldName: 'stores[0].tokens[1].acl[1]', fieldValue: 'read_sales_orders' },
      ]);
      expect((error as DomainError).message).toContain('Fulfil_SalesOrder::api_read');
      expect(await database.snapshot()).toEqual(before);
    });

    it('the admin API refuses an unknown resource with 400 naming it', async () => {
      const database = await open(kind);
      await database.engine.loadSeed({ stores: [STORE] });
      const { secret } = await database.engine.admin.createOperator({
        name: 'alice',
        role: 'admin',
      });
      const server = await startHttpServer({ engine: database.engine, log: () => {}, admin: {} });
      try {
        const create = (acl: unknown) =>
          fetch(`${server.url}/admin/api/stores/default/tokens`, {
            method: 'POST',
            headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name: `t-${JSON.stringify(acl).length}`, acl }),
          });
        const before = await database.snapshot();
        const refused = await create(['read_sales_orders']);
        expect(refused.status).toBe(400);
        const body = (await refused.json()) as { parameters: unknown[] };
        expect(body.parameters).toEqual([{ fieldName: 'acl[0]', fieldValue: 'read_sales_orders' }]);
        expect(await database.snapshot()).toEqual(before);
        expect((await create(['Fulfil_SalesOrder::api_read'])).status).toBe(201);
      } finally {
        await server.close();
      }
    });
  });
}
