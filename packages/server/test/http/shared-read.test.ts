import { describe, expect, test } from 'vitest';
import { sharedRead } from '../../src/http/shared-read.js';

/** A read whose every call is counted and settles only when the test says so. */
function controlledRead() {
  const pending: { resolve: (value: number) => void; reject: (error: Error) => void }[] = [];
  let started = 0;
  const read = () => {
    started++;
    return new Promise<number>((resolve, reject) => pending.push({ resolve, reject }));
  };
  return { read, pending, started: () => started };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('sharedRead', () => {
  test('callers during a read get the next one, which starts after them; one read for all', async () => {
    const { read, pending, started } = controlledRead();
    const shared = sharedRead(read);
    const first = shared();
    const second = shared();
    const third = shared();
    expect(started()).toBe(1);
    pending[0]?.resolve(1);
    expect(await first).toBe(1);
    await tick();
    // The read under way when they called is not theirs: a second one started after it.
    expect(started()).toBe(2);
    pending[1]?.resolve(2);
    expect([await second, await third]).toEqual([2, 2]);
    // Nothing under way: a new caller starts a read at once.
    const fourth = shared();
    expect(started()).toBe(3);
    pending[2]?.resolve(3);
    expect(await fourth).toBe(3);
  });

  test('a failed read fails its callers only; the next callers get a new read', async () => {
    const { read, pending, started } = controlledRead();
    const shared = sharedRead(read);
    const first = shared();
    const second = shared();
    pending[0]?.reject(new Error('gone'));
    await expect(first).rejects.toThrow('gone');
    await tick();
    expect(started()).toBe(2);
    pending[1]?.resolve(7);
    expect(await second).toBe(7);
  });
});
