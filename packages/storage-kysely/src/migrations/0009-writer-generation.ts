import type { Kysely, Migration } from 'kysely';
import type { SchemaFlags } from '../schema-flags.js';
import { guardWrites, unguardWrites } from '../writer-generation.js';

/** Every table of the schema at this migration, but kysely's bookkeeping. */
const TABLES = [
  'stores',
  'warehouses',
  'stock',
  'tokens',
  'sales_order_sequences',
  'fulfillment_orders',
  'order_items',
  'shipments',
  'invoices',
  'queue_entries',
  'audit_events',
  'operators',
  'operator_sessions',
  'store_audit',
  'courier_labels',
  'fulfil_change_clock',
];

/**
 * Writer generation 1 (writer-generation.ts): from here on the database refuses every write of
 * a process that does not declare it, as no process of a release before this one does. Those
 * processes write queue entries without the change id and the change clock that pollers and
 * every process's caches rely on (migration 0006, docs/polling.md): a new process would go on
 * serving what it had read, and a `since` poller would never see the change. Stop them before
 * this migration runs; one still running gets its writes refused. Frozen in time like every
 * migration.
 */
export function writerGenerationMigration(flags: SchemaFlags): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      await guardWrites(db, flags, { generation: 1, tables: TABLES });
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await unguardWrites(db, flags, { tables: TABLES, dropGuard: true });
    },
  };
}
