import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import {
  BookkeepingIntrospector,
  withBookkeepingIntrospector,
} from './bookkeeping-introspector.js';
import type { Database } from './database.js';
import { backfillDeadlines } from './deadline-backfill.js';
import type { DriverProfile } from './driver-profile.js';
import { upgradeAllListedOrders } from './listed-order-upgrades.js';
import { initialMigration } from './migrations/0001-initial.js';
import { queueDocumentsMigration } from './migrations/0002-queue-documents.js';
import { adminMigration } from './migrations/0004-admin.js';
import { courierLabelsMigration } from './migrations/0005-courier-labels.js';
import { changeCursorMigration } from './migrations/0006-change-cursor.js';
import { tokenNotificationsMigration } from './migrations/0007-token-notifications.js';
import { pollIndexVersionsMigration } from './migrations/0008-poll-index-versions.js';
import { writerGenerationMigration } from './migrations/0009-writer-generation.js';
import { liveTotalsMigration } from './migrations/0010-live-totals.js';
import { sessionExpiryMigration } from './migrations/0011-session-expiry.js';
import { salesOrdersMigration } from './migrations/0013-sales-orders.js';
import { holdsAndCancellationsMigration } from './migrations/0016-holds-and-cancellations.js';
import { returnsMigration } from './migrations/0019-returns.js';
import { heldOrdersMigration } from './migrations/0020-held-orders.js';
import { courierDuePartialMigration } from './migrations/0021-courier-due-partial.js';
import { labelCarriersAndEndedHoldsMigration } from './migrations/0022-label-carriers-and-ended-holds.js';
import { stockAdjustmentsMigration } from './migrations/0023-stock-adjustments.js';
import { warehouseRoutingMigration } from './migrations/0025-warehouse-routing.js';
import { safetyStockMigration } from './migrations/0026-safety-stock.js';
import { stockSetsMigration } from './migrations/0027-stock-sets.js';
import { reservedWhenRoutedMigration } from './migrations/0028-reserved-when-routed.js';
import { routingCapacityMigration } from './migrations/0029-routing-capacity.js';
import { deadlinesMigration } from './migrations/0030-deadlines.js';
import { shippedByDeadlineMigration } from './migrations/0031-shipped-by-deadline.js';
import { shippedAtPartialMigration } from './migrations/0032-shipped-at-partial.js';
import { newerReleaseError, unknownMigrations } from './newer-release.js';
import { fillMissingDocuments } from './read-model.js';
import type { SchemaFlags } from './schema-flags.js';

/** The names of kysely's bookkeeping tables: prefixed, so a host app's own migrations never clash. */
export const MIGRATION_TABLE = 'fulfil_migration';
export const MIGRATION_LOCK_TABLE = 'fulfil_migration_lock';

/**
 * Every migration of the schema, in code rather than files on disk, so that they survive
 * bundling. Names sort in the order they apply.
 */
export class FulfilMigrationProvider implements MigrationProvider {
  readonly #flags: SchemaFlags;

  constructor(flags: SchemaFlags) {
    this.#flags = flags;
  }

  async getMigrations(): Promise<Record<string, Migration>> {
    return {
      '0001_initial': initialMigration(this.#flags),
      '0002_queue_documents': queueDocumentsMigration(),
      '0004_admin': adminMigration(this.#flags),
      '0005_courier_labels': courierLabelsMigration(this.#flags),
      '0006_change_cursor': changeCursorMigration(this.#flags),
      '0007_token_notifications': tokenNotificationsMigration(this.#flags),
      '0008_poll_index_versions': pollIndexVersionsMigration(),
      '0009_writer_generation': writerGenerationMigration(this.#flags),
      '0010_live_totals': liveTotalsMigration(this.#flags),
      '0011_session_expiry': sessionExpiryMigration(),
      '0013_sales_orders': salesOrdersMigration(this.#flags),
      '0016_holds_and_cancellations': holdsAndCancellationsMigration(this.#flags),
      '0019_returns': returnsMigration(this.#flags),
      '0020_held_orders': heldOrdersMigration(),
      '0021_courier_due_partial': courierDuePartialMigration(),
      '0022_label_carriers_and_ended_holds': labelCarriersAndEndedHoldsMigration(this.#flags),
      '0023_stock_adjustments': stockAdjustmentsMigration(this.#flags),
      '0025_warehouse_routing': warehouseRoutingMigration(),
      '0026_safety_stock': safetyStockMigration(),
      '0027_stock_sets': stockSetsMigration(this.#flags),
      '0028_reserved_when_routed': reservedWhenRoutedMigration(this.#flags),
      '0029_routing_capacity': routingCapacityMigration(),
      '0030_deadlines': deadlinesMigration(),
      '0031_shipped_by_deadline': shippedByDeadlineMigration(this.#flags),
      '0032_shipped_at_partial': shippedAtPartialMigration(),
    };
  }
}

export interface MigrateOptions {
  /** Schema of kysely's bookkeeping tables (Postgres); the default schema when absent. */
  migrationTableSchema?: string;
  /**
   * The adapter's profile, for the work after the migrations to write orders as the repository's
   * transactions do (row locks, the change feed's SQL); SQLite's way when absent.
   */
  profile?: DriverProfile;
}

/**
 * Applies every pending migration, each in its own transaction where the dialect has
 * transactional DDL, then does the work that live code does once the schema is current: writes
 * the read model's missing documents (`fillMissingDocuments`) and brings the orders migration
 * 0010 listed to the live-lines rule (`LIVE_TOTALS_UPGRADE`) and releases the holds of the
 * canceled orders migration 0022 listed (`ENDED_HOLDS_ORDER_UPGRADE`), each through
 * `upgradeListedOrders`, and gives the orders taken in before 0030 their deadline
 * (`backfillDeadlines`).
 * Returns the names of the migrations applied now (empty when the schema was current).
 * Throws when one fails; the ones before it stay applied. Throws, changing nothing, when a newer
 * release migrated the database (it has applied migrations this code does not know).
 *
 * Two processes may call this at once only when the adapter makes them take turns: SQLite's
 * write transactions begin with `BEGIN IMMEDIATE`, Postgres takes an advisory lock around it.
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  flags: SchemaFlags,
  options: MigrateOptions = {},
): Promise<string[]> {
  const schema = options.migrationTableSchema;
  const introspector = new BookkeepingIntrospector(db as Kysely<unknown>, schema, [
    MIGRATION_TABLE,
    MIGRATION_LOCK_TABLE,
  ]);
  const provider = new FulfilMigrationProvider(flags);
  const migrator = new Migrator({
    db: withBookkeepingIntrospector(db, introspector),
    provider,
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
    // Migrations are numbered by the line of work that adds them, so one with a lower number may
    // arrive after a higher one was applied (0003 after 0004): each is independent of the
    // others' order, and runs when it has not yet.
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    // Applied migrations this code lacks: a newer release migrated the database.
    const known = Object.keys(await provider.getMigrations());
    const unknown = await unknownMigrations(db as Kysely<unknown>, MIGRATION_TABLE, schema, known);
    if (unknown.length > 0) throw newerReleaseError(unknown, error);
    const failed = results.find((result) => result.status === 'Error');
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(
      `fulfil: migration ${failed ? `"${failed.migrationName}" ` : ''}failed: ${cause}`,
      { cause: error },
    );
  }
  await fillMissingDocuments(db);
  await upgradeAllListedOrders(db, options.profile);
  await backfillDeadlines(db, options.profile);
  return results.filter((result) => result.status === 'Success').map((r) => r.migrationName);
}
