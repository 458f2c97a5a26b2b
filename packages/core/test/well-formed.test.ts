import { describe, expect, it } from 'vitest';
import { malformedStrings, parseWith, StockItemsRequest } from '../src/index.js';
import { expectDomainError } from './support/expect-error.js';

describe('docs/behaviour.md: strings that are not well-formed Unicode', () => {
  it('finds lone surrogates in values and field names at any depth, with their paths, in document order', () => {
    const input = {
      invoice: {
        invoice_number: 'INV-7\ud800',
        items: [{ item_id: 1 }, { tags: ['ok', 'x\udfff'] }],
      },
      'key\udbff': 'fine',
      emoji: '😀 is a pair, not a lone surrogate',
      nested: [[['\ud83d']]],
    };
    expect(malformedStrings(input)).toEqual([
      { path: 'invoice.invoice_number', shown: 'INV-7\\uD800', key: false },
      { path: 'invoice.items[1].tags[1]', shown: 'x\\uDFFF', key: false },
      { path: 'key\\uDBFF', shown: 'key\\uDBFF', key: true },
      { path: 'nested[0][0][0]', shown: '\\uD83D', key: false },
    ]);
    expect(malformedStrings('\ud800')).toEqual([{ path: '', shown: '\\uD800', key: false }]);
    expect(malformedStrings({ a: ['ok', '😀', 'ü'], b: 1, c: null, d: true })).toEqual([]);
  });

  it('walks any depth without running out of stack, and stops at the limit', () => {
    let deep: unknown = 'bottom\ud800';
    for (let level = 0; level < 200_000; level++) deep = [deep];
    expect(malformedStrings(deep)).toHaveLength(1);
    const many = Array.from({ length: 1000 }, () => '\ud800');
    expect(malformedStrings(many, 20)).toHaveLength(20);
  });

  it('parseWith refuses them before the schema, with the code given, naming each field', () => {
    const refuse = () =>
      parseWith(
        StockItemsRequest,
        {
          stock_items: [
            { warehouse_code: 'WH-A', sku: 'LONE\ud800', qty: 1 },
            { warehouse_code: 'WH-A', sku: 'LONE\udfff', qty: 1 },
          ],
          // Ignored by the schema, refused all the same: it would have been read as text.
          'extra\ud800': 1,
        },
        'invalid_stock_batch',
      );
    const domain = expectDomainError(refuse, 'invalid_stock_batch');
    expect(domain.parameters).toEqual([
      { fieldName: 'stock_items[0].sku', fieldValue: 'LONE\\uD800' },
      { fieldName: 'stock_items[1].sku', fieldValue: 'LONE\\uDFFF' },
      { fieldName: 'extra\\uD800', fieldValue: 'extra\\uD800' },
    ]);
    expect(domain.errors.map((detail) => detail.message)).toEqual([
      'Invalid value of "%fieldName": not well-formed Unicode (a lone surrogate).',
      'Invalid value of "%fieldName": not well-formed Unicode (a lone surrogate).',
      'Invalid field name "%fieldName": not well-formed Unicode (a lone surrogate).',
    ]);
    // Everything an error shows is well-formed text.
    expect(malformedStrings([domain.message, domain.parameters, domain.errors])).toEqual([]);

    // Shortened where a pair starts: the value shown is cut before the pair, not inside it.
    for (const prefix of ['', 'x']) {
      const long = `${prefix}${'😀'.repeat(60)}\ud800`;
      const shortened = expectDomainError(
        () => parseWith(StockItemsRequest, { stock_items: [{ sku: long }] }),
        'invalid_request',
        'stock_items[0].sku',
      );
      const shown = shortened.parameters[0]?.fieldValue ?? '';
      expect(shown.endsWith('...')).toBe(true);
      expect(malformedStrings([shown, shortened.errors])).toEqual([]);
    }
  });
});
