import type { PollQuery } from '@fulfil/core';
import type { StatementPlan } from '@fulfil/storage-kysely';
import { sql } from 'kysely';
import type { PostgresRepository } from './open-postgres-repository.js';

/**
 * How often Postgres plans a prepared statement for the values at hand before it weighs keeping
 * one plan for every run.
 */
const CUSTOM_PLANS_FIRST = 5;

/**
 * Postgres' plan (`EXPLAIN EXECUTE`) of each statement a poll of `query` runs, as a connection
 * keeps it: the versions of the page with the change horizon, then the page of stored
 * documents. Each is prepared on one connection and run as often as Postgres plans it afresh
 * before settling, so the plan shown is the one every later run gets. For tests and
 * diagnostics: a poll must read its page from the poll index in id order, never sort a queue.
 */
export async function explainPollQuery(
  repository: PostgresRepository,
  query: PollQuery,
): Promise<StatementPlan[]> {
  return repository.db.connection().execute(async (db) => {
    const plans: StatementPlan[] = [];
    for (const [index, compiled] of repository.pollStatements(query).entries()) {
      const name = sql.id(`fulfil_explain_poll_${index}`);
      const values = compiled.parameters.map((value) => sql.lit(value));
      const run = sql`execute ${name} (${sql.join(values)})`;
      await sql`prepare ${name} as ${sql.raw(compiled.sql)}`.execute(db);
      try {
        for (let done = 0; done < CUSTOM_PLANS_FIRST; done++) await run.execute(db);
        const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${run}`.execute(db);
        plans.push({ sql: compiled.sql, plan: rows.map((row) => row['QUERY PLAN']) });
      } finally {
        await sql`deallocate ${name}`.execute(db);
      }
    }
    return plans;
  });
}
