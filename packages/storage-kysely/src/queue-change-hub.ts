/** Calls made when queue entries of a store (null: some store) may have changed. */
export type QueueChangeListener = (storeId: number | null) => void;

/**
 * Where the changes of other processes come from: started when the first listener arrives,
 * stopped when the last one leaves (a source may stay connected meanwhile if reconnecting costs
 * more), closed with the repository. Once it watches (and again after any gap in watching), it
 * calls `emit(null)`: a change made before then is not lost to a listener that subscribed,
 * then read the database, and is waiting for what comes next.
 */
export interface OtherProcesses {
  start(emit: QueueChangeListener): void;
  stop(): void;
  close(): Promise<void>;
}

/**
 * The repository's `onQueueChange` (docs/polling.md): this process's commits are told at once,
 * other processes' through an {@link OtherProcesses} source that runs only while someone listens.
 * A listener that throws does not stop the others.
 */
export class QueueChangeHub {
  readonly #listeners = new Set<QueueChangeListener>();
  readonly #others: OtherProcesses | undefined;

  constructor(others?: OtherProcesses) {
    this.#others = others;
  }

  subscribe(listener: QueueChangeListener): () => void {
    // A function may be subscribed twice (two waiters sharing it): each gets its own entry.
    const entry: QueueChangeListener = (storeId) => listener(storeId);
    this.#listeners.add(entry);
    if (this.#listeners.size === 1) this.#others?.start((storeId) => this.emit(storeId));
    return () => {
      if (!this.#listeners.delete(entry)) return;
      if (this.#listeners.size === 0) this.#others?.stop();
    };
  }

  emit(storeId: number | null): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(storeId);
      } catch {
        // A listener's own failure is its own; the others still hear of the change.
      }
    }
  }

  async close(): Promise<void> {
    this.#listeners.clear();
    await this.#others?.close();
  }
}

/**
 * Other processes' commits to one SQLite file, seen as a change of `PRAGMA data_version` (which
 * moves when another connection commits), read every `intervalMs` while someone listens.
 */
export function pollingOtherProcesses(
  read: () => Promise<unknown>,
  intervalMs: number,
): OtherProcesses {
  let timer: NodeJS.Timeout | undefined;
  let last: unknown;
  let reading = false;
  return {
    start(emit) {
      if (timer) return;
      last = undefined;
      timer = setInterval(() => {
        if (reading) return;
        reading = true;
        read()
          .then((version) => {
            // The first read is the baseline; a commit made before it (while a listener was
            // polling the database itself) is covered by a call now, whose listener looks again.
            if (version !== last) emit(null);
            last = version;
          })
          // A failed read says nothing about changes; the next tick reads again.
          .catch(() => {})
          .finally(() => {
            reading = false;
          });
      }, intervalMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
    async close() {
      this.stop();
    },
  };
}
