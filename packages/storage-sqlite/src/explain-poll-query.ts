import type { PollQuery } from '@fulfil/core';
import { KyselyRepositoryTx } from '@fulfil/storage-kysely';
import {
  CompiledQuery,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { SqliteRepository } from './open-sqlite-repository.js';

/** One statement that `pollQueue` ran, and SQLite's plan for it. */
export interface StatementPlan {
  sql: string;
  /** The `detail` lines of `EXPLAIN QUERY PLAN`, e.g. `SEARCH queue_entries USING COVERING INDEX …`. */
  plan: string[];
}

/** Records the queries run through it, untouched. */
class QueryRecorder implements KyselyPlugin {
  readonly queries: { node: RootOperationNode; queryId: QueryId }[] = [];

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.queries.push({ node: args.node, queryId: args.queryId });
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/**
 * Runs `pollDocuments(query)`, what a poll runs, and returns SQLite's query plan
 * (`EXPLAIN QUERY PLAN`) of every statement it ran: the one that reads the page of stored
 * documents from `queue_entries`. For tests and diagnostics: polling must search an index, never
 * scan a table.
 */
export async function explainPollQuery(
  repository: SqliteRepository,
  query: PollQuery,
): Promise<StatementPlan[]> {
  const recorder = new QueryRecorder();
  await new KyselyRepositoryTx(repository.db.withPlugin(recorder), {
    rowLocks: false,
  }).pollDocuments(query);
  const executor = repository.db.getExecutor();
  const plans: StatementPlan[] = [];
  for (const { node, queryId } of recorder.queries) {
    const compiled = executor.compileQuery(node, queryId);
    const result = await repository.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
    );
    plans.push({ sql: compiled.sql, plan: result.rows.map((row) => row.detail) });
  }
  return plans;
}
