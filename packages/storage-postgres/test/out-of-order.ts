import type { RepositoryTx } from '@fulfil/core';
import type { PostgresRepository } from '@fulfil/storage-postgres';

/**
 * Out-of-order commits for the cursor tests: `write` runs in a transaction that then stays open
 * until `release()`, so that it took its change (its transaction id) before a later one commits.
 * `written` resolves once it has written; `done` once it has committed.
 */
export function heldOpen<T>(
  repository: PostgresRepository,
  write: (tx: RepositoryTx) => Promise<T>,
): { written: Promise<void>; release: () => void; done: Promise<T> } {
  let wrote!: () => void;
  const written = new Promise<void>((resolve) => {
    wrote = resolve;
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const done = repository.transaction(async (tx) => {
    const result = await write(tx);
    wrote();
    await released;
    return result;
  });
  return { written, release, done };
}

/**
 * Polls on from `page`'s cursor until nothing is held back any more, as a long poll would: the
 * horizon is the cluster's, and a transaction of another session (another test of this run, on
 * the same server) may hold it back a while. Every document seen, in order, and the last page.
 */
export async function pollUntilSettled<
  P extends { documents: string[]; cursor: string; pending: boolean },
>(poll: (since: string) => Promise<P>, page: P): Promise<{ documents: string[]; last: P }> {
  let last = await poll(page.cursor);
  const documents = [...last.documents];
  for (let tries = 0; last.pending && tries < 600; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await poll(last.cursor);
    documents.push(...last.documents);
  }
  return { documents, last };
}
