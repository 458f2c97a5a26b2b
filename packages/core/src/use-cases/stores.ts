import type * as v from 'valibot';
import type { Store, Warehouse } from '../domain/types.js';
import type { RepositoryTx } from '../ports/repository.js';
import { storeCode as StoreCode, StoreSettingsInput, WarehouseInput } from '../schemas/operator.js';
import { parseWith } from '../schemas/parse.js';
import { type EngineDeps, requireStore } from './deps.js';

/**
 * Creates the store, or merges `settings` into the existing store's settings (the courier's and
 * the attention thresholds too: patching `{ courier: { delay_ms } }` keeps its type and the rest).
 */
export async function upsertStoreWithin(
  tx: RepositoryTx,
  code: string,
  settings: v.InferInput<typeof StoreSettingsInput> = {},
): Promise<Store> {
  parseWith(StoreCode, code);
  const existing = await tx.findStore(code);
  const attention = settings.attention_after_hours && {
    attention_after_hours: {
      ...existing?.settings.attention_after_hours,
      ...settings.attention_after_hours,
    },
  };
  const merged = parseWith(StoreSettingsInput, {
    ...existing?.settings,
    ...settings,
    courier: { ...existing?.settings.courier, ...settings.courier },
    ...attention,
  });
  return tx.upsertStore(code, merged);
}

export function upsertStore(
  deps: EngineDeps,
  code: string,
  settings?: v.InferInput<typeof StoreSettingsInput>,
): Promise<Store> {
  return deps.repository.transaction((tx) => upsertStoreWithin(tx, code, settings));
}

export function listStores(deps: EngineDeps): Promise<Store[]> {
  return deps.repository.transaction((tx) => tx.listStores(), 'read');
}

export async function getStore(deps: EngineDeps, code: string): Promise<Store> {
  return deps.repository.transaction((tx) => requireStore(tx, code), 'read');
}

export async function upsertWarehouseWithin(
  tx: RepositoryTx,
  storeCode: string,
  spec: unknown,
): Promise<Warehouse> {
  const store = await requireStore(tx, storeCode);
  const input = parseWith(WarehouseInput, spec);
  return tx.upsertWarehouse({ store_id: store.id, ...input });
}

/** Creates the warehouse or replaces its fields. */
export function upsertWarehouse(
  deps: EngineDeps,
  storeCode: string,
  spec: unknown,
): Promise<Warehouse> {
  return deps.repository.transaction((tx) => upsertWarehouseWithin(tx, storeCode, spec));
}
