/**
 * Client-side locks by key (a stock row). The load holds the lock of every stock row a request
 * changes on hand for (a ship, a stock sync) until that request has a definite answer, so the
 * order in which it records acknowledgements is the order the database applied them in.
 */
export class KeyLocks {
  #tails = new Map<string, Promise<void>>();

  async with<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const releases: (() => void)[] = [];
    // One global order of acquisition: two holders never wait on each other.
    for (const key of [...new Set(keys)].sort()) {
      const previous = this.#tails.get(key) ?? Promise.resolve();
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      this.#tails.set(
        key,
        previous.then(() => held),
      );
      await previous;
      releases.push(release);
    }
    try {
      return await work();
    } finally {
      for (const release of releases) release();
    }
  }
}
