import type {
  DatabaseIntrospector,
  Dialect,
  DialectAdapter,
  Driver,
  Kysely,
  QueryCompiler,
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
