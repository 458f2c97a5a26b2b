import type {
  DatabaseConnection,
  DatabaseIntrospector,
  Dialect,
  DialectAdapter,
  Driver,
  Kysely,
  QueryCompiler,
  TransactionSettings,
} from 'kysely';

/** `dialect` whose driver is `wrap` of its own: what a driver wrapper changes, and nothing else. */
export function withDriver(dialect: Dialect, wrap: (driver: Driver) => Driver): Dialect {
  return {
    createAdapter: (): DialectAdapter => dialect.createAdapter(),
    createDriver: (): Driver => wrap(dialect.createDriver()),
    createQueryCompiler: (): QueryCompiler => dialect.createQueryCompiler(),
    createIntrospector: (db: Kysely<unknown>): DatabaseIntrospector =>
      dialect.createIntrospector(db),
  };
}

/** The driver's savepoint statements; a driver without them cannot nest transactions. */
export function savepoints(
  driver: Driver,
): Required<Pick<Driver, 'savepoint' | 'rollbackToSavepoint' | 'releaseSavepoint'>> {
  const { savepoint, rollbackToSavepoint, releaseSavepoint } = driver;
  if (!(savepoint && rollbackToSavepoint && releaseSavepoint)) {
    throw new Error('fulfil: this database driver has no savepoints');
  }
  return {
    savepoint: savepoint.bind(driver),
    rollbackToSavepoint: rollbackToSavepoint.bind(driver),
    releaseSavepoint: releaseSavepoint.bind(driver),
  };
}

/** A connection that wraps another, which the driver underneath takes back. */
export interface WrappedConnection extends DatabaseConnection {
  readonly inner: DatabaseConnection;
}

/**
 * A driver that hands out its own wrapper of each connection of `inner` (one for the
 * connection's whole life) and passes everything else on: BEGIN, COMMIT, ROLLBACK and savepoints
 * run through the wrapper, as statements of it. Subclasses change what they need.
 */
export class ForwardingDriver<C extends WrappedConnection> implements Driver {
  protected readonly inner: Driver;
  readonly #wrap: (connection: DatabaseConnection) => C;
  readonly #wrapped = new WeakMap<DatabaseConnection, C>();

  constructor(inner: Driver, wrap: (connection: DatabaseConnection) => C) {
    this.inner = inner;
    this.#wrap = wrap;
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  // A `then`, not an async function: fewer promises per connection taken, and each promise is
  // one more for the process's async hooks while a context is kept (AsyncLocalStorage).
  acquireConnection(): Promise<DatabaseConnection> {
    return this.inner.acquireConnection().then((connection) => this.#wrapperOf(connection));
  }

  #wrapperOf(connection: DatabaseConnection): C {
    let wrapped = this.#wrapped.get(connection);
    if (!wrapped) {
      wrapped = this.#wrap(connection);
      this.#wrapped.set(connection, wrapped);
    }
    return wrapped;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return savepoints(this.inner).savepoint(connection, name, compile);
  }

  rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return savepoints(this.inner).rollbackToSavepoint(connection, name, compile);
  }

  releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return savepoints(this.inner).releaseSavepoint(connection, name, compile);
  }

  // The driver underneath releases its own connection object (pg's goes back to its pool).
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as C).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
