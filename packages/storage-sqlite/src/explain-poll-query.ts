import type { PollQuery } from '@fulfil/core';
import type { StatementPlan } from '@fulfil/storage-kysely';
import { CompiledQuery } from 'kysely';
import type { SqliteRepository } from './open-sqlite-repository.js';

export type { StatementPlan };

/**
 * SQLite's query plan (`EXPLAIN QUERY PLAN`) of each statement a poll of `query` runs: the
 * versions of the page with the change horizon, then the page of stored documents, when the
 * versions name one the process does not hold (`RepositoryTx.pollVersions`, `pollEntries`). For
 * tests and diagnostics: polling must search an index, never scan a table.
 */
export async function explainPollQuery(
  repository: SqliteRepository,
  query: PollQuery,
): Promise<StatementPlan[]> {
  const plans: StatementPlan[] = [];
  for (const compiled of repository.pollStatements(query)) {
    plans.push({ sql: compiled.sql, plan: await explainStatement(repository, compiled) });
  }
  return plans;
}

/** What SQLite's planner says it does for one compiled statement, a step a line. */
export async function explainStatement(
  repository: SqliteRepository,
  compiled: { sql: string; parameters: readonly unknown[] },
): Promise<string[]> {
  const result = await repository.db.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
  );
  return result.rows.map((row) => row.detail);
}
