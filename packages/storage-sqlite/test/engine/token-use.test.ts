import { createEngine, ManualClock } from '@fulfil/core';
import { describe, expect, it } from 'vitest';
import { openSqliteRepository } from '../../src/index.js';

/** A token's last use (docs/admin-api.md): written at most once a minute, off the request path. */

const SECRET = 'partner-secret-0123456789-abcdefghijklmnop';

async function open(trackTokenUse: boolean) {
  const clock = new ManualClock('2026-03-01T09:00:00Z');
  const repository = await openSqliteRepository({ filename: ':memory:' });
  const engine = createEngine({ repository, clock, trackTokenUse });
  await engine.loadSeed({
    stores: [{ code: 'default', tokens: [{ name: 'p', token: SECRET, acl: 'partner' }] }],
  });
  const lastUse = async () => (await engine.listTokens('default'))[0]?.last_used_at ?? null;
  /** Lets the background write, if any, commit: yields until `lastUse` is `wanted` or gives up. */
  const settle = async (wanted: string | null) => {
    for (let turn = 0; turn < 200 && (await lastUse()) !== wanted; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    return lastUse();
  };
  return { engine, clock, lastUse, settle };
}

describe('token last use', () => {
  it('is written on first use, not again within the minute, again after it', async () => {
    const { engine, clock, lastUse, settle } = await open(true);
    expect(await lastUse()).toBeNull();
    await engine.authenticate('default', SECRET);
    expect(await settle('2026-03-01 09:00:00')).toBe('2026-03-01 09:00:00');
    clock.advance(59_000);
    await engine.authenticate('default', SECRET);
    // Nothing to wait for: give a background write every chance, it must not come.
    expect(await settle('2026-03-01 09:00:59')).toBe('2026-03-01 09:00:00');
    clock.advance(1_000);
    await engine.authenticate('default', SECRET);
    expect(await settle('2026-03-01 09:01:00')).toBe('2026-03-01 09:01:00');
    await engine.close();
  });

  it('is never written when the engine does not track it', async () => {
    const { engine, settle } = await open(false);
    await engine.authenticate('default', SECRET);
    expect(await settle('2026-03-01 09:00:00')).toBeNull();
    await engine.close();
  });
});
