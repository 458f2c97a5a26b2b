import type { Compilable, Kysely } from 'kysely';
import type { Database } from './database.js';
import type { ArgumentOf, PreparedQueries } from './prepared-queries.js';

interface Waiter {
  resolve: (rows: readonly unknown[]) => void;
  reject: (error: unknown) => void;
}

/** One read on its way, and those who asked for the same read since: they share the next. */
interface Flight {
  next: Waiter[];
  /** Settles once the read has returned and its waiters are answered. */
  landed: Promise<void>;
}

/**
 * Shared reads: a prepared read outside transactions, asked while the very same read (the same
 * query, the same arguments) is on its way to the database, waits for it to return and then
 * goes again, once, for everyone who asked meanwhile. A hot page polled by many at once then
 * costs the database one read per round trip instead of one per request, however many ask;
 * different reads never wait for each other.
 *
 * A read never shares one already sent: the read that answers it starts after it was asked, so
 * it sees every commit acknowledged before (the read-after-acknowledge guarantee of
 * docs/read-model.md). A failure is the failure of everyone who shared the read.
 */
export class SharedReads {
  readonly #db: Kysely<Database>;
  readonly #prepared: PreparedQueries;
  readonly #flights = new Map<string, Flight>();

  constructor(db: Kysely<Database>, prepared: PreparedQueries) {
    this.#db = db;
    this.#prepared = prepared;
  }

  /**
   * The rows of the prepared query `name` over `args` (prepared-queries.ts), read by a statement
   * sent after this call. Everyone who shared the read gets the same array: not to be modified.
   */
  read<R>(
    name: string,
    args: readonly unknown[],
    build: (db: Kysely<Database>, argument: ArgumentOf) => Compilable<R>,
  ): Promise<readonly R[]> {
    return new Promise((resolve, reject) => {
      const waiter = { resolve: resolve as Waiter['resolve'], reject };
      const key = JSON.stringify([name, args]);
      const flight = this.#flights.get(key);
      if (flight) {
        flight.next.push(waiter);
        return;
      }
      const send = async () => (await this.#prepared.run(this.#db, name, args, build)).rows;
      this.#fly(key, send, [waiter]);
    });
  }

  /** Settles once no read is on its way. */
  async idle(): Promise<void> {
    while (this.#flights.size > 0) {
      await Promise.all([...this.#flights.values()].map((flight) => flight.landed));
    }
  }

  #fly(key: string, send: () => Promise<readonly unknown[]>, waiters: readonly Waiter[]): void {
    const flight: Flight = {
      next: [],
      landed: send().then(
        (rows) => {
          for (const waiter of waiters) waiter.resolve(rows);
        },
        (error: unknown) => {
          for (const waiter of waiters) waiter.reject(error);
        },
      ),
    };
    this.#flights.set(key, flight);
    void flight.landed.then(() => {
      if (flight.next.length > 0) this.#fly(key, send, flight.next);
      else this.#flights.delete(key);
    });
  }
}
