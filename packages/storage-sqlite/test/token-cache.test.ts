import type { TokenRecord } from '@fulfil/core';
import { token } from '@fulfil/core/testing/fixtures';
import { TokenCache } from '@fulfil/storage-kysely';
import { describe, expect, it } from 'vitest';

/** The tokens a repository keeps (token-cache.ts), driven by hand: which reads may be kept. */
describe('TokenCache', () => {
  const record: TokenRecord = { id: 1, ...token(1, 'partner') };
  /** A watch whose version the test moves; undefined: changes cannot be heard. */
  const watched = () => {
    const watch = { current: 0 as number | undefined };
    const cache = new TokenCache({ version: () => watch.current, close: async () => {} });
    return { watch, cache };
  };

  it('keeps a token read under a ticket, for its hash and store only', () => {
    const { cache } = watched();
    cache.keep(cache.ticket(), record.hash, 'default', record);
    expect(cache.find(record.hash, 'default')).toBe(record);
    expect(cache.find(record.hash, 'other')).toBeUndefined();
    expect(cache.find('0'.repeat(64), 'default')).toBeUndefined();
  });

  it('keeps nothing read under a ticket taken before a write committed', () => {
    const { cache } = watched();
    const ticket = cache.ticket();
    // The read is under way; a write of a token commits meanwhile.
    cache.forget();
    cache.keep(ticket, record.hash, 'default', record);
    expect(cache.find(record.hash, 'default')).toBeUndefined();
  });

  it('forgets when the watch hears of a change, and keeps nothing read across it', () => {
    const { watch, cache } = watched();
    cache.keep(cache.ticket(), record.hash, 'default', record);
    watch.current = 1;
    expect(cache.find(record.hash, 'default')).toBeUndefined();
    const ticket = cache.ticket();
    watch.current = 2;
    cache.keep(ticket, record.hash, 'default', record);
    expect(cache.find(record.hash, 'default')).toBeUndefined();
  });

  it('serves what it kept again when the watch can tell again and nothing changed meanwhile', () => {
    const { watch, cache } = watched();
    cache.keep(cache.ticket(), record.hash, 'default', record);
    watch.current = undefined;
    expect(cache.find(record.hash, 'default')).toBeUndefined();
    watch.current = 0;
    expect(cache.find(record.hash, 'default')).toBe(record);
  });

  it('keeps and serves nothing while changes cannot be heard', () => {
    const { watch, cache } = watched();
    cache.keep(cache.ticket(), record.hash, 'default', record);
    watch.current = undefined;
    expect(cache.find(record.hash, 'default')).toBeUndefined();
    cache.keep(cache.ticket(), record.hash, 'default', record);
    // Heard again (a reconnect moves the version): nothing from before is trusted.
    watch.current = 5;
    expect(cache.find(record.hash, 'default')).toBeUndefined();
  });
});
