import { fixtures } from '@fulfil/core/testing';
import type { SqliteRepository } from '@fulfil/storage-sqlite';

export interface HeldLock {
  /** Lets the holding transaction commit. */
  release(): void;
  /** Settles when it has. */
  done: Promise<void>;
}

/** Takes SQLite's write lock in a transaction of `holder` and keeps it until `release`. */
export async function holdWriteLock(holder: SqliteRepository): Promise<HeldLock> {
  let release = () => {};
  let locked = () => {};
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const done = holder.transaction(async (tx) => {
    await tx.upsertStore('holder', fixtures.storeSettings());
    locked();
    await new Promise<void>((resolve) => {
      release = resolve;
    });
  });
  await isLocked;
  return { release: () => release(), done };
}
