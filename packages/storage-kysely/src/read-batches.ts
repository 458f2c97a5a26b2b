import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from './database.js';
import { type ArgumentOf, compilable, type PreparedQueries } from './prepared-queries.js';

/**
 * The most different reads of one query one statement carries: bounds its text, and the
 * statements kept prepared of each query (one per count).
 */
const MAX_BATCH = 16;

/** The column that tells whose rows are whose in a statement of several reads. */
const MEMBER = 'fulfil_read';

/** One read of a prepared query, waiting for its batch. */
interface Member {
  /** The name and arguments together: reads with the same key are one read. */
  key: string;
  name: string;
  args: readonly unknown[];
  build: (db: Kysely<Database>, argument: ArgumentOf) => RawBuilder<unknown>;
  /** Everyone who asked for this very read while the batch waited. */
  waiters: { resolve: (rows: unknown[]) => void; reject: (error: unknown) => void }[];
}

/**
 * Batched reads: the prepared reads outside transactions that ask for the database while another
 * batch of them is on its way run together: the reads of one query in one statement (`union
 * all`, each read's rows tagged with its place), those of different queries side by side, and
 * the same read asked twice runs once. Where each statement is a
 * round trip to a database server, that is one round trip for many requests instead of one
 * each: one system call to send it, one wake-up of the server process, one result.
 *
 * A read never joins a statement already sent: the statement that answers it starts after the
 * read was asked, so it sees every commit acknowledged before (the read-after-acknowledge
 * guarantee of docs/read-model.md). All the reads of one statement see one snapshot.
 *
 * A batch starts on the turn of the event loop after its first read queued (`setImmediate`), or
 * when the batch before it returns: one batch at a time is on its way. A failure of the
 * statement is every read's failure.
 */
export class ReadBatches {
  readonly #db: Kysely<Database>;
  readonly #prepared: PreparedQueries;
  #waiting = new Map<string, Member>();
  #scheduled = false;
  #running = false;
  #draining: Promise<void> = Promise.resolve();

  constructor(db: Kysely<Database>, prepared: PreparedQueries) {
    this.#db = db;
    this.#prepared = prepared;
  }

  /** The rows of the prepared query `name` over `args`, read in the next batch. */
  read<R>(
    name: string,
    args: readonly unknown[],
    build: (db: Kysely<Database>, argument: ArgumentOf) => RawBuilder<R>,
  ): Promise<R[]> {
    return new Promise<R[]>((resolve, reject) => {
      const key = JSON.stringify([name, args]);
      let member = this.#waiting.get(key);
      if (!member) {
        member = { key, name, args, build, waiters: [] };
        this.#waiting.set(key, member);
      }
      member.waiters.push({ resolve: resolve as (rows: unknown[]) => void, reject });
      this.#schedule();
    });
  }

  /** Settles once no read waits for a batch and none is on its way. */
  async idle(): Promise<void> {
    while (this.#scheduled || this.#running) {
      if (this.#running) await this.#draining;
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  #schedule(): void {
    if (this.#scheduled || this.#running) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#draining = this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      while (this.#waiting.size > 0) {
        const batches = batchesOf([...this.#waiting.values()]);
        this.#waiting = new Map();
        await Promise.all(batches.map((batch) => this.#run(batch)));
      }
    } finally {
      this.#running = false;
    }
  }

  /** Runs one statement for `batch` and settles each of its reads; never throws. */
  async #run(batch: readonly Member[]): Promise<void> {
    try {
      const rowsOf = await this.#statement(batch);
      batch.forEach((member, index) => {
        for (const waiter of member.waiters) waiter.resolve(rowsOf[index] ?? []);
      });
    } catch (error) {
      for (const member of batch) for (const waiter of member.waiters) waiter.reject(error);
    }
  }

  /** Each read's rows, in `batch`'s order. */
  async #statement(batch: readonly Member[]): Promise<unknown[][]> {
    const [first] = batch;
    if (!first) return [];
    if (batch.length === 1) {
      const { rows } = await this.#prepared.run(this.#db, first.name, first.args, (db, argument) =>
        compilable(db, first.build(db, argument)),
      );
      return [rows];
    }
    const name = `${first.name} ×${batch.length}`;
    const args = batch.flatMap((member) => member.args);
    const { rows } = await this.#prepared.run(this.#db, name, args, (db, argument) => {
      let first = 0;
      const parts = batch.map((member, index) => {
        const at = first;
        first += member.args.length;
        const read = member.build(db, (offset) => argument(at + offset));
        return sql`select ${sql.lit(index)} as ${sql.ref(MEMBER)}, r.* from (${read}) as r`;
      });
      return compilable(db, sql<Record<string, unknown>>`${sql.join(parts, sql` union all `)}`);
    });
    const rowsOf: unknown[][] = batch.map(() => []);
    for (const row of rows as Record<string, unknown>[]) {
      const { [MEMBER]: index, ...rest } = row;
      rowsOf[Number(index)]?.push(rest);
    }
    return rowsOf;
  }
}

/** The reads in statements: those of one query together, at most `MAX_BATCH` to a statement. */
function batchesOf(members: readonly Member[]): Member[][] {
  const byName = new Map<string, Member[][]>();
  for (const member of members) {
    const batches = byName.get(member.name) ?? [];
    const last = batches.at(-1);
    if (last && last.length < MAX_BATCH) last.push(member);
    else batches.push([member]);
    byName.set(member.name, batches);
  }
  return [...byName.values()].flat();
}
