import {
  type CarrierAccounts,
  CarrierAccountsInput,
  type Engine,
  parseWith,
  resolveCarrier,
  SIMULATED_COURIER,
} from '@fulfil/core';
import * as v from 'valibot';
import { builtInCouriers } from '../couriers/registry.js';
import { columns } from './args.js';
import { describeError } from './describe-error.js';
import type { CliIo } from './io.js';

/**
 * The installation's carrier accounts (docs/couriers.md), from the JSON file `--carriers` (or
 * `FULFIL_CARRIERS`) names: `{ "accounts": { "<name>": { "type", "url", "secret_env", "stores" } } }`.
 * Every process of the installation reads the same file; stores pick among its accounts by name.
 */

const CarriersFile = v.strictObject({ accounts: CarrierAccountsInput });

/** The courier types the CLI offers. */
const TYPES = [SIMULATED_COURIER, ...Object.keys(builtInCouriers({}))];

/** The accounts of the carriers file `file` holds, checked; an error names the file and field. */
export function parseCarrierAccounts(document: unknown, file: string): CarrierAccounts {
  try {
    const { accounts } = parseWith(CarriersFile, document);
    for (const [name, account] of Object.entries(accounts)) {
      if (!TYPES.includes(account.type))
        throw new Error(`accounts.${name}.type must be one of ${TYPES.join(', ')}`);
      if (account.type === 'http' && !account.url)
        throw new Error(`accounts.${name}.url is missing: an http account needs its bridge's URL`);
    }
    return accounts;
  } catch (error) {
    throw new Error(`${file}: ${describeError(error)}`);
  }
}

/**
 * What `serve` says of the carriers at start: each account (a secret variable that is not set is
 * named), and each store whose courier no account covers, whose courier orders fail until one is
 * declared or picked.
 */
export async function carrierBanner(engine: Engine, env: CliIo['env']): Promise<string> {
  const accounts = engine.carrierAccounts;
  const lines: string[] = [];
  const declared = Object.entries(accounts).map(([name, account]): [string, string] => {
    const where = account.url ? ` at ${account.url}` : '';
    const secret = account.secret_env
      ? `, secret in ${account.secret_env}${env[account.secret_env] ? '' : ' (NOT SET)'}`
      : '';
    const stores = account.stores ? `, for stores ${account.stores.join(', ')}` : '';
    return [name, `${account.type}${where}${secret}${stores}`];
  });
  if (declared.length) lines.push(`Carrier accounts:\n${columns(declared)}`);
  const uncovered: [string, string][] = [];
  for (const store of await engine.listStores()) {
    const chosen = resolveCarrier(store.settings.courier, accounts, store.code);
    if ('problem' in chosen) uncovered.push([`store ${store.code}`, chosen.problem]);
  }
  if (uncovered.length) {
    lines.push(
      `No carrier account covers the courier of these stores: their courier orders fail until\none is declared (--carriers) or picked (courier.account); see docs/couriers.md.\n${columns(uncovered)}`,
    );
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
