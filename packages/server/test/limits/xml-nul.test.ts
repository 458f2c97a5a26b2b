import { describe, expect, it } from 'vitest';
import { databaseKinds } from '../databases/open.js';
import { oneWarehouseStore, servedPerDescribe } from './support.js';

/**
 * No string holds a NUL (docs/limits.md), however it is written: the XML reference `&#0;` (or
 * `&#x0;`) is refused like JSON's `\u0000`, naming the field, never stored as the text `&#0;`.
 */

for (const kind of databaseKinds()) {
  describe(`a NUL written as an XML reference on ${kind.name}`, () => {
    const served = servedPerDescribe(kind, oneWarehouseStore());

    it('is refused naming the field; nothing is written', async () => {
      const before = await served.database.snapshot();
      for (const reference of ['&#0;', '&#x0;', '&#x00;']) {
        const reply = await served.postXml(
          '/V1/stockItems',
          `<request><stock_items><item><warehouse_code>WH-A</warehouse_code><sku>A${reference}B</sku><qty>3</qty></item></stock_items></request>`,
        );
        expect(reply.status, reference).toBe(400);
        expect(reply.body.parameters[0].fieldName).toBe('stock_items[0].sku');
        expect(reply.body.detail).toContain('NUL');
      }
      expect(await served.database.snapshot()).toEqual(before);
      const plain = await served.postXml(
        '/V1/stockItems',
        '<request><stock_items><item><warehouse_code>WH-A</warehouse_code><sku>A&#65;B</sku><qty>3</qty></item></stock_items></request>',
      );
      expect(plain.status).toBe(200);
      expect((await served.engine.listStock('default')).map((row) => row.sku)).toEqual(['AAB']);
    });
  });
}
