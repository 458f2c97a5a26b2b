import { DECLARE_WRITER_GENERATION_SQL } from '@fulfil/storage-kysely';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  PostgresDialect,
  type PostgresDialectConfig,
  PostgresDriver,
  type TransactionSettings,
} from 'kysely';

/**
 * A driver whose every transaction declares, as it begins, the writer generation of this code
 * (storage-kysely's writer-generation.ts): `BEGIN` and `SET LOCAL` go in one round trip, and the
 * setting lasts as long as the transaction, on whatever server connection a pooler gave it.
 * Without it the schema's guard refuses every write to its tables.
 *
 * Every kysely transaction on this dialect goes through it, kysely's migrator included.
 */
class DeclaringPostgresDriver extends PostgresDriver {
  override async beginTransaction(
    connection: DatabaseConnection,
    settings: TransactionSettings,
  ): Promise<void> {
    const characteristics = [
      settings.isolationLevel ? `isolation level ${settings.isolationLevel}` : '',
      settings.accessMode ?? '',
    ].filter(Boolean);
    const begin = ['start transaction', ...characteristics].join(' ');
    await connection.executeQuery(CompiledQuery.raw(`${begin}; ${DECLARE_WRITER_GENERATION_SQL}`));
  }
}

/** kysely's `PostgresDialect` with {@link DeclaringPostgresDriver}. */
export class DeclaringPostgresDialect extends PostgresDialect {
  readonly #config: PostgresDialectConfig;

  constructor(config: PostgresDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new DeclaringPostgresDriver(this.#config);
  }
}
