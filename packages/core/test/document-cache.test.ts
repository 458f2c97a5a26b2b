import { describe, expect, it } from 'vitest';
import type { ChangedEntry } from '../src/index.js';
import { DocumentCache } from '../src/index.js';

const entry = (
  order_id: number,
  change: number,
  document = `{"id":${order_id}}`,
): ChangedEntry => ({
  order_id,
  change,
  document,
});
const versions = (entries: readonly ChangedEntry[]) =>
  entries.map(({ order_id, change }) => ({ order_id, change }));
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('DocumentCache', () => {
  it('finds a page only when it holds every document under the change that wrote it', () => {
    const cache = new DocumentCache(1 << 20);
    const page = [entry(1, 10), entry(2, 11)];
    expect(cache.find('pending_accept', versions(page))).toBeUndefined();
    cache.keep('pending_accept', page);
    expect(cache.find('pending_accept', versions(page))?.map((kept) => kept.text)).toEqual([
      '{"id":1}',
      '{"id":2}',
    ]);
    // A newer change of one order, another queue, an order it never read: not known.
    expect(cache.find('pending_accept', [{ order_id: 1, change: 12 }])).toBeUndefined();
    expect(cache.find('pending_allocation', [{ order_id: 1, change: 10 }])).toBeUndefined();
    expect(cache.find('pending_accept', [{ order_id: 3, change: 10 }])).toBeUndefined();
  });

  it('names the entries whose document it does not hold under the change they name', () => {
    const cache = new DocumentCache(1 << 20);
    cache.keep('pending_accept', [entry(1, 10), entry(2, 11)]);
    const wanted = [
      { order_id: 1, change: 10 },
      { order_id: 2, change: 12 },
      { order_id: 3, change: 13 },
    ];
    expect(cache.missing('pending_accept', wanted)).toEqual(wanted.slice(1));
    expect(cache.missing('pending_shipment', wanted)).toEqual(wanted);
  });

  it('builds the JSON array of a page as UTF-8, and answers it again while its entries stay', () => {
    const cache = new DocumentCache(1 << 20);
    const page = [entry(1, 10, '{"name":"Zoë ✓"}'), entry(2, 11)];
    const kept = cache.keepPage('k', 'pending_accept', page);
    expect(text(kept.json)).toBe('[{"name":"Zoë ✓"},{"id":2}]');
    expect(cache.page('k', 'pending_accept', versions(page))).toBe(kept);
    // Another key over the same documents: a page of its own, built from the kept documents.
    const other = cache.page('other', 'pending_accept', versions(page));
    expect(other).not.toBe(kept);
    expect(text(other?.json ?? new Uint8Array())).toBe(text(kept.json));
    // One entry changed: the kept page is not answered, and the new document is not held.
    expect(
      cache.page('k', 'pending_accept', [{ order_id: 1, change: 12 }, page[1] as ChangedEntry]),
    ).toBeUndefined();
    expect(text(cache.keepPage('empty', 'failed', []).json)).toBe('[]');
  });

  it('stays within its bytes, letting the oldest go first', () => {
    const document = `{"pad":"${'x'.repeat(1000)}"}`;
    const size = document.length * 3; // its text in UTF-16, and its bytes
    const cache = new DocumentCache(size * 3);
    for (let id = 1; id <= 5; id++) cache.keep('pending_accept', [entry(id, 1, document)]);
    expect(cache.bytes).toBeLessThanOrEqual(size * 3);
    expect(cache.find('pending_accept', [{ order_id: 1, change: 1 }])).toBeUndefined();
    expect(cache.find('pending_accept', [{ order_id: 5, change: 1 }])).toBeDefined();
    // A document larger than the whole cache is answered and not kept.
    const tiny = new DocumentCache(10);
    expect(tiny.keep('pending_accept', [entry(1, 1, document)])[0]?.text).toBe(document);
    expect(tiny.bytes).toBe(0);
  });

  it('forgets everything when the database is another one (another epoch)', () => {
    const cache = new DocumentCache(1 << 20);
    cache.useEpoch('a');
    const page = [entry(1, 10)];
    cache.keepPage('k', 'pending_accept', page);
    cache.useEpoch('a');
    expect(cache.page('k', 'pending_accept', versions(page))).toBeDefined();
    cache.useEpoch('b');
    expect(cache.page('k', 'pending_accept', versions(page))).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });
});
