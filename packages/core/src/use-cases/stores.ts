import * as v from 'valibot';
import { patchCourier, withoutUnchangedCourierFields } from '../domain/carrier-accounts.js';
import { type ErrorCode, fieldErrors } from '../domain/errors.js';
import type { CourierSettings, Store, StoreSettings, Warehouse } from '../domain/types.js';
import type { RepositoryTx } from '../ports/repository.js';
import {
  storeCode as StoreCode,
  StoreSettingsInput,
  StoreSettingsPatchInput,
  WarehouseInput,
} from '../schemas/operator.js';
import { parseWith } from '../schemas/parse.js';
import { type EngineDeps, requireStore } from './deps.js';

/** Where the settings came from, for the errors: their path, and the error code. */
export interface SettingsSource {
  path: string;
  code: ErrorCode;
}

/**
 * Creates the store, or merges `settings` into the existing store's settings (the courier's and
 * the attention thresholds too: patching `{ courier: { delay_ms } }` keeps its account and the
 * rest). The courier is one of the installation's carrier accounts, picked by name
 * (docs/couriers.md); fields sent back as they are stored change nothing and are not checked
 * again.
 */
export async function upsertStoreWithin(
  deps: EngineDeps,
  tx: RepositoryTx,
  code: string,
  settings: unknown = {},
  source: SettingsSource = { path: 'settings', code: 'invalid_request' },
): Promise<Store> {
  parseWith(StoreCode, code);
  const existing = await tx.findStore(code);
  const sent = withoutUnchangedCourierFields(settings, existing?.settings.courier);
  const patch = parseWith(
    v.object({ [source.path]: StoreSettingsPatchInput }),
    { [source.path]: sent },
    source.code,
  )[source.path] as v.InferOutput<typeof StoreSettingsPatchInput>;
  const chosen = patchCourier(
    existing?.settings.courier,
    (sent as { courier?: Partial<CourierSettings> }).courier ?? {},
    deps.carrierAccounts,
    code,
    source.path,
  );
  const [problem] = chosen.problems;
  if (problem) throw fieldErrors(source.code, problem.message, chosen.problems);
  const attention = patch.attention_after_hours && {
    attention_after_hours: {
      ...existing?.settings.attention_after_hours,
      ...patch.attention_after_hours,
    },
  };
  const merged = parseWith(StoreSettingsInput, {
    ...existing?.settings,
    ...patch,
    courier: chosen.courier,
    ...attention,
  });
  const courier = { ...merged.courier, ...chosen.legacy } as StoreSettings['courier'];
  return tx.upsertStore(code, { ...merged, courier });
}

export function upsertStore(deps: EngineDeps, code: string, settings?: unknown): Promise<Store> {
  return deps.repository.transaction((tx) => upsertStoreWithin(deps, tx, code, settings));
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
