import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryExecutor,
  type QueryResult,
  Transaction,
} from 'kysely';
import type { Database } from './database.js';

/**
 * Kysely runs each statement of a transaction through the layers of its executor: a check that
 * the transaction is still open, a queue for its one connection, the connection's provider, the
 * plugins' turn at the result. That is a dozen promises a statement, each paying the async hooks
 * of every AsyncLocalStorage the process has enabled (the storage's own, an OpenTelemetry SDK's),
 * and an action runs ten statements or more. This executor hands each statement to the
 * transaction's connection itself, one after another as kysely does, and once the transaction
 * has ended passes it to kysely's executor, which refuses it. Everything else (compiling,
 * streaming, a plugin added to the transaction) is kysely's executor's.
 */
class ConnectionExecutor implements QueryExecutor {
  readonly #kysely: QueryExecutor;
  readonly #connection: DatabaseConnection;
  #ended = false;
  /** The statement under way, until it settles: one asked for meanwhile waits for it. */
  #underWay: Promise<unknown> | undefined;

  constructor(kysely: QueryExecutor, connection: DatabaseConnection) {
    this.#kysely = kysely;
    this.#connection = connection;
  }

  end(): void {
    this.#ended = true;
  }

  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> {
    if (this.#ended) return this.#kysely.executeQuery(query);
    const run = () => this.#connection.executeQuery<R>(query);
    let result: Promise<QueryResult<R>>;
    if (this.#underWay) {
      result = this.#underWay.then(run, run);
    } else {
      try {
        result = run();
      } catch (error) {
        // A driver may throw before its first await (better-sqlite3 preparing a statement).
        result = Promise.reject(error);
      }
    }
    this.#underWay = result;
    const settled = () => {
      if (this.#underWay === result) this.#underWay = undefined;
    };
    result.then(settled, settled);
    return result;
  }

  get adapter() {
    return this.#kysely.adapter;
  }
  get plugins() {
    return this.#kysely.plugins;
  }
  transformQuery: QueryExecutor['transformQuery'] = (node, queryId) =>
    this.#kysely.transformQuery(node, queryId);
  compileQuery: QueryExecutor['compileQuery'] = (node, queryId) =>
    this.#kysely.compileQuery(node, queryId);
  provideConnection: QueryExecutor['provideConnection'] = (consumer) =>
    this.#kysely.provideConnection(consumer);
  stream: QueryExecutor['stream'] = (query, chunkSize) => this.#kysely.stream(query, chunkSize);
  withPlugins: QueryExecutor['withPlugins'] = (plugins) => this.#kysely.withPlugins(plugins);
  withPlugin: QueryExecutor['withPlugin'] = (plugin) => this.#kysely.withPlugin(plugin);
  withPluginAtFront: QueryExecutor['withPluginAtFront'] = (plugin) =>
    this.#kysely.withPluginAtFront(plugin);
  withConnectionProvider: QueryExecutor['withConnectionProvider'] = (provider) =>
    this.#kysely.withConnectionProvider(provider);
  withoutPlugins: QueryExecutor['withoutPlugins'] = () => this.#kysely.withoutPlugins();
}

/** What a transaction has for a driver: kysely never begins a transaction inside another. */
const noNestedTransactions = (): Promise<never> =>
  Promise.reject(new Error('fulfil: transactions never nest'));
const NO_DRIVER: Driver = {
  init: noNestedTransactions,
  acquireConnection: noNestedTransactions,
  beginTransaction: noNestedTransactions,
  commitTransaction: noNestedTransactions,
  rollbackTransaction: noNestedTransactions,
  releaseConnection: noNestedTransactions,
  destroy: noNestedTransactions,
};

/**
 * Runs `work` with `trx` as a transaction whose statements go straight to its connection (see
 * ConnectionExecutor); `dialect` is the one `trx`'s kysely instance was made with. Where a plugin
 * may change results (none of Fulfil's own), `work` gets `trx` as it is.
 */
export async function onItsConnection<T>(
  trx: Transaction<Database>,
  dialect: Dialect,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const kysely = trx.getExecutor();
  if (kysely.plugins.length > 0) return work(trx);
  const connection = await kysely.provideConnection(async (given) => given);
  const executor = new ConnectionExecutor(kysely, connection);
  try {
    return await work(
      new Transaction<Database>({ config: { dialect }, dialect, driver: NO_DRIVER, executor }),
    );
  } finally {
    executor.end();
  }
}
