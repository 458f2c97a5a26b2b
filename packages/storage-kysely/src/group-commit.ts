import { AsyncResource } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { currentSpanContext, Probe } from '@fulfil/core';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Database } from './database.js';
import { runWaitingWrites } from './deferred-writes.js';
import type { DriverProfile } from './driver-profile.js';
import { reportedFailure, retryDelayMs } from './transaction-retry.js';

/** The most actions one commit carries by default: bounds how long the first of a group waits for the last. */
export const DEFAULT_GROUP_SIZE = 64;

/** How many actions a group carries, and how many groups run at once. */
export interface GroupCommitOptions {
  /** Members of one group at most. Default {@link DEFAULT_GROUP_SIZE}. */
  size?: number;
  /**
   * Groups under way at once, each on a connection of its own: 1 where the database has one
   * connection (SQLite). Default 1.
   */
  lanes?: number;
  /** False: no span of the group (`groupCommitProbe`). Default true. */
  traced?: boolean;
}

const SAVEPOINT = 'fulfil_action';
const savepoint = CompiledQuery.raw(`savepoint ${SAVEPOINT}`);
const release = CompiledQuery.raw(`release savepoint ${SAVEPOINT}`);
const rollbackTo = CompiledQuery.raw(`rollback to savepoint ${SAVEPOINT}`);

/** What the `fulfil:group-commit` channel tells of a group (and its span's attributes). */
export interface GroupCommitMessage {
  /** The write transactions the group carries. */
  members: number;
  /** The span of each member's caller, as `currentSpanContext` gave it: the group's links. */
  callers: readonly unknown[];
}

/**
 * One group's transaction, from its BEGIN to its COMMIT. It runs in the async context of the
 * group's first member, so BEGIN and COMMIT are in that caller's trace; it links to the span of
 * every member's caller. Each member's statements, its savepoint's included, run in its own
 * caller's context: they are in its own trace, whichever request began the group.
 */
export const groupCommitProbe = new Probe<GroupCommitMessage>({
  channel: 'fulfil:group-commit',
  scope: '@fulfil/storage-kysely',
  kind: 'internal',
  spanName: () => 'fulfil group commit',
  attributes: (message) => ({ 'fulfil.group_commit.members': message.members }),
  links: (message) => message.callers,
});

/** One write transaction, queued for a group or running in one. */
interface Member {
  /** The async context of the caller that asked for the transaction. */
  caller: AsyncResource;
  /** The work, bound to that context. */
  run: (trx: Kysely<Database>) => Promise<unknown>;
  /** Which try this is, the first being 1. */
  attempt: number;
  /** `performance.now()` at its first transient failure (a lock held elsewhere), if any. */
  conflictSince?: number;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome =
  | { member: Member; ok: true; value: unknown }
  | { member: Member; ok: false; error: unknown };

/** A member failed and the database undid the whole transaction with it (SQLite does, on some errors). */
class GroupUndone extends Error {
  constructor(readonly fault: unknown) {
    super('fulfil: the database rolled the whole group back', { cause: fault });
  }
}

/** Runs `work` in one write transaction of its own, its settings set, and commits it. */
export type WriteTransaction = (
  work: (trx: Transaction<Database>) => Promise<void>,
) => Promise<void>;

/**
 * Group commit: the write transactions of one process that queue for its connection run
 * together in one database transaction, each inside a savepoint of its own, with one COMMIT for
 * the group. Where every commit waits for the disk (a SQLite file syncs its WAL, Postgres
 * flushes its WAL), that is one sync for many actions instead of one each, and on a database
 * server one BEGIN and one COMMIT round trip for the group instead of one each.
 *
 * Each member keeps the guarantees of a transaction of its own:
 * - it is atomic: when its work rejects, it is rolled back to its savepoint and gets its own
 *   error; the other members go on;
 * - nothing is answered before the shared COMMIT has returned, failures included (a member's
 *   decision may rest on what an earlier member of the group wrote);
 * - when the COMMIT fails, no member's work remains and every member gets that failure (core's
 *   `unavailable` when the database is away);
 * - when a member's failure makes the database undo the whole transaction (SQLite does on a full
 *   disk or an I/O error), that member gets its failure and the others run again in the next
 *   group: none of them was answered;
 * - a transient conflict (`profile.isRetryable`: SQLite's lock held by another process at BEGIN
 *   or COMMIT; a Postgres deadlock, which fails one member's statement: it is rolled back to its
 *   savepoint, which frees its row locks, and the others go on) runs the member's work again in
 *   a later group, after the profile's backoff on a timer, up to `profile.maxAttempts` tries and
 *   for `profile.retryForMs` at most; then it gets the failure (`unavailable`). Nothing waits for
 *   the lock on the thread: reads, and every other request, are served meanwhile.
 *
 * What it costs: a member holds its row locks until its group commits, so a member of another
 * group (of this process or another) that wants the same row waits for the whole group; and
 * members of two groups that lock rows in opposite orders deadlock where two transactions of one
 * action each would not (Postgres finds it after `deadlock_timeout`, and one member runs again).
 *
 * A group starts on the turn of the event loop after its first member queued (`setImmediate`):
 * every request already read from the sockets in this turn queues its action first; that is the
 * only wait, well under a millisecond. Up to `lanes` groups run at once (a pool of connections):
 * a member queued while all of them run waits for the first lane to end its group, which then
 * takes up to `size` waiting members as its next group.
 */
export class GroupCommit {
  readonly #transaction: WriteTransaction;
  readonly #profile: DriverProfile;
  readonly #traced: boolean;
  readonly #size: number;
  readonly #lanes: number;
  readonly #queue: Member[] = [];
  /** A lane is about to start (`setImmediate`). */
  #scheduled = false;
  /** The lanes under way, each running groups one after another until the queue is empty. */
  readonly #running = new Set<Promise<void>>();
  /** Members waiting for the timer of their next try; each settles once it has queued again. */
  readonly #retries = new Set<Promise<void>>();

  /** `transaction` runs each group. */
  constructor(
    transaction: WriteTransaction,
    profile: DriverProfile,
    options: GroupCommitOptions = {},
  ) {
    this.#transaction = transaction;
    this.#profile = profile;
    this.#traced = options.traced !== false;
    this.#size = Math.max(1, options.size ?? DEFAULT_GROUP_SIZE);
    this.#lanes = Math.max(1, options.lanes ?? 1);
  }

  /** Runs `work` in the next group; settles once that group's transaction has ended. */
  run<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    // The caller's async context, for the work to run in (not the group's, which is another's).
    const caller = new AsyncResource('FulfilTransaction');
    return new Promise<T>((resolve, reject) => {
      this.#enqueue({
        caller,
        run: (trx) => caller.runInAsyncScope(work, undefined, trx),
        attempt: 1,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
    });
  }

  /**
   * Settles once no group is waiting to start or running, and no member waits to be tried again
   * (for a lock held elsewhere: up to the profile's `retryForMs`).
   */
  async idle(): Promise<void> {
    while (this.#scheduled || this.#running.size > 0 || this.#retries.size > 0) {
      if (this.#running.size > 0) await Promise.all(this.#running);
      else if (this.#scheduled) await new Promise((resolve) => setImmediate(resolve));
      else await Promise.race(this.#retries);
    }
  }

  #enqueue(member: Member): void {
    this.#queue.push(member);
    this.#schedule();
  }

  /** Starts a lane on the next turn, while members wait and one more lane may run. */
  #schedule(): void {
    if (this.#scheduled || this.#queue.length === 0 || this.#running.size >= this.#lanes) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#queue.length === 0 || this.#running.size >= this.#lanes) return;
      // Its first group is taken at once: what remains may start the next lane.
      const lane = this.#drain().finally(() => {
        this.#running.delete(lane);
        // Members may have queued after its last look while every lane was under way.
        this.#schedule();
      });
      this.#running.add(lane);
      this.#schedule();
    });
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const group = this.#queue.splice(0, this.#size);
      // In the context of the group's first member: not in that of whichever caller began the
      // drain, which may be long answered.
      await (group[0] as Member).caller.runInAsyncScope(() => this.#traceGroup(group));
    }
  }

  /** Runs one group to its end and settles each member; never throws. */
  async #traceGroup(group: readonly Member[]): Promise<void> {
    const outcomes: Outcome[] = [];
    const transaction = () => this.#runGroup(group, outcomes);
    try {
      await (this.#traced
        ? groupCommitProbe.trace(
            () => ({
              members: group.length,
              callers: group.flatMap(
                (member) => member.caller.runInAsyncScope(currentSpanContext) ?? [],
              ),
            }),
            transaction,
          )
        : transaction());
    } catch (error) {
      this.#settleFailed(group, outcomes, error);
      return;
    }
    for (const outcome of outcomes) {
      if (outcome.ok) outcome.member.resolve(outcome.value);
      else this.#fail(outcome.member, outcome.error);
    }
  }

  /** The group's transaction: each member's outcome is pushed to `outcomes` as it ends. */
  async #runGroup(group: readonly Member[], outcomes: Outcome[]): Promise<void> {
    await this.#transaction(async (trx) => {
      const [only] = group;
      // Alone, a member needs no savepoint: its failure rolls the transaction back.
      if (only && group.length === 1) {
        outcomes.push({ member: only, ok: true, value: await only.run(trx) });
        return;
      }
      const deferred = this.#profile.deferredWrites === true;
      for (const member of group) {
        outcomes.push(
          await member.caller.runInAsyncScope(runMember, undefined, trx, member, deferred),
        );
      }
    });
  }

  /** Settles the members of a group whose transaction failed. */
  #settleFailed(group: readonly Member[], outcomes: readonly Outcome[], error: unknown): void {
    // The member running when the group failed: the one after those with an outcome.
    const culprit = group[outcomes.length];
    if (error instanceof GroupUndone && culprit) {
      // It gets its failure; the others, none of them answered yet, run again in the next group.
      // Back at the front, in their order; one at a time, never as one call's arguments.
      const kept = group.filter((member) => member !== culprit);
      for (let index = kept.length - 1; index >= 0; index--)
        this.#queue.unshift(kept[index] as Member);
      this.#fail(culprit, error.fault);
      return;
    }
    // BEGIN, COMMIT, a savepoint or a member alone failed: nothing of the group remains, and
    // every member gets the failure (a busy lock runs them again after the backoff).
    for (const member of group) this.#fail(member, error);
  }

  #fail(member: Member, error: unknown): void {
    member.conflictSince ??= performance.now();
    const delay = retryDelayMs(this.#profile, error, member.attempt, member.conflictSince);
    if (delay !== undefined) {
      member.attempt += 1;
      const retry = sleep(delay).then(() => {
        this.#retries.delete(retry);
        this.#enqueue(member);
      });
      this.#retries.add(retry);
      return;
    }
    member.reject(reportedFailure(this.#profile, error));
  }
}

/**
 * Runs one member inside a savepoint of the group's transaction: kept, or undone alone. A kept
 * member's savepoint is not released: the next member's nests in it (a rollback returns to the
 * latest of the name), and COMMIT ends them all, a statement less per member than a RELEASE.
 * `deferred`: the dialect defers writes; the member's writes that wait run before its savepoint
 * is left behind, so that their failure is its own.
 */
async function runMember(
  trx: Transaction<Database>,
  member: Member,
  deferred: boolean,
): Promise<Outcome> {
  await trx.executeQuery(savepoint);
  try {
    const value = await member.run(trx);
    if (deferred) await trx.executeQuery(runWaitingWrites);
    return { member, ok: true, value };
  } catch (error) {
    try {
      await trx.executeQuery(rollbackTo);
      await trx.executeQuery(release);
    } catch {
      // No savepoint left to return to: the database rolled the whole transaction back.
      throw new GroupUndone(error);
    }
    return { member, ok: false, error };
  }
}
