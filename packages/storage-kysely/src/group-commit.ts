import { AsyncResource } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { currentSpanContext, Probe } from '@fulfil/core';
import { CompiledQuery, type Kysely, type Transaction, type TransactionBuilder } from 'kysely';
import type { Database } from './database.js';
import type { DriverProfile } from './driver-profile.js';
import { reportedFailure, retryDelayMs } from './transaction-retry.js';

/** The most actions one commit carries: bounds how long the first of a group waits for the last. */
const MAX_GROUP = 64;

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

/**
 * Group commit: the write transactions of one process that queue for its connection run
 * together in one database transaction, each inside a savepoint of its own, with one COMMIT for
 * the group. Where every commit waits for the disk (a SQLite file syncs its WAL), that is one
 * sync for many actions instead of one each.
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
 *   or COMMIT) runs the member's work again in a later group, after the profile's backoff on a
 *   timer, up to `profile.maxAttempts` tries and for `profile.retryForMs` at most; then it gets
 *   the failure (`unavailable`). Nothing waits for the lock on the thread: reads, and every
 *   other request, are served meanwhile.
 *
 * A group starts on the turn of the event loop after its first member queued (`setImmediate`):
 * every request already read from the sockets in this turn queues its action first. While a group
 * runs, new members queue for the next one.
 */
export class GroupCommit {
  readonly #begin: () => TransactionBuilder<Database>;
  readonly #profile: DriverProfile;
  readonly #traced: boolean;
  readonly #queue: Member[] = [];
  /** A group is about to start (`setImmediate`). */
  #scheduled = false;
  /** Groups are running, one after another, until the queue is empty. */
  #running = false;
  #draining: Promise<void> = Promise.resolve();
  /** Members waiting for the timer of their next try; each settles once it has queued again. */
  readonly #retries = new Set<Promise<void>>();

  /**
   * `begin` returns the builder of one write transaction, its settings set; `traced` false: no
   * span of the group (`groupCommitProbe`).
   */
  constructor(begin: () => TransactionBuilder<Database>, profile: DriverProfile, traced = true) {
    this.#begin = begin;
    this.#profile = profile;
    this.#traced = traced;
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
    while (this.#scheduled || this.#running || this.#retries.size > 0) {
      if (this.#running) await this.#draining;
      else if (this.#scheduled) await new Promise((resolve) => setImmediate(resolve));
      else await Promise.race(this.#retries);
    }
  }

  #enqueue(member: Member): void {
    this.#queue.push(member);
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
      while (this.#queue.length > 0) {
        const group = this.#queue.splice(0, MAX_GROUP);
        // In the context of the group's first member: not in that of whichever caller began the
        // drain, which may be long answered.
        await (group[0] as Member).caller.runInAsyncScope(() => this.#traceGroup(group));
      }
    } finally {
      this.#running = false;
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
    await this.#begin().execute(async (trx) => {
      const [only] = group;
      // Alone, a member needs no savepoint: its failure rolls the transaction back.
      if (only && group.length === 1) {
        outcomes.push({ member: only, ok: true, value: await only.run(trx) });
        return;
      }
      for (const member of group) {
        outcomes.push(await member.caller.runInAsyncScope(runMember, undefined, trx, member));
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

/** Runs one member inside a savepoint of the group's transaction: kept, or undone alone. */
async function runMember(trx: Transaction<Database>, member: Member): Promise<Outcome> {
  await trx.executeQuery(savepoint);
  try {
    const value = await member.run(trx);
    await trx.executeQuery(release);
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
