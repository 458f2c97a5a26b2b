import type { ErrorDetail } from './errors.js';
import type { CourierSettings, LegacyCourierEndpoint, StoreSettings } from './types.js';

/**
 * The installation's carrier accounts (docs/couriers.md): which carrier URLs exist and which
 * environment variables hold their secrets is the installation's configuration, given when the
 * engine is created (`fulfil serve --carriers`). A store's settings only pick one by name; no
 * store setting names a URL or a variable. Pure decisions about them.
 */

/** A carrier account as the installation declares it. */
export interface CarrierAccount {
  /** The courier type that speaks to it: `http`, `shipengine`, or one an embedding app registers. */
  type: string;
  /** Where its calls go; an adapter with a fixed API (ShipEngine) has its own default. */
  url?: string;
  /** The name of the environment variable holding its secret (never the secret itself). */
  secret_env?: string;
  /** The stores that may pick it, by code; absent, every store may. */
  stores?: readonly string[];
}

export type CarrierAccounts = Readonly<Record<string, CarrierAccount>>;

/** The one courier a store picks by type, with no account: it makes no call outside the process. */
export const SIMULATED_COURIER = 'simulated';

/** The account a store ships with, resolved: its name and the installation's declaration. */
export interface ChosenCarrier {
  name: string;
  account: CarrierAccount;
}

/** The settings fields of releases before carrier accounts, in the order errors name them. */
export const LEGACY_ENDPOINT_FIELDS = ['api_key_env', 'base_url', 'secret_env', 'url'] as const;

/** The names of the accounts the store may pick, in bytewise order. */
export function accountsOpenTo(accounts: CarrierAccounts, storeCode: string): string[] {
  return Object.keys(accounts)
    .filter((name) => opensTo(accounts[name] as CarrierAccount, storeCode))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function opensTo(account: CarrierAccount, storeCode: string): boolean {
  return account.stores === undefined || account.stores.includes(storeCode);
}

/** `a, b`, or `none`. */
function listed(names: readonly string[]): string {
  return names.length ? names.join(', ') : 'none';
}

/** The declared account of this name, when the store may pick it. */
function accountOf(
  accounts: CarrierAccounts,
  name: string,
  storeCode: string,
): CarrierAccount | undefined {
  const account = Object.hasOwn(accounts, name) ? accounts[name] : undefined;
  return account && opensTo(account, storeCode) ? account : undefined;
}

/** The stored settings without the legacy endpoint, and that endpoint's fields. */
export function splitLegacyEndpoint(settings: StoreSettings['courier']): {
  courier: CourierSettings;
  legacy: LegacyCourierEndpoint;
} {
  const courier = { ...settings };
  const legacy: LegacyCourierEndpoint = {};
  for (const field of LEGACY_ENDPOINT_FIELDS) {
    const value = courier[field];
    delete courier[field];
    if (value !== undefined) legacy[field] = value;
  }
  return { courier, legacy };
}

const sameUrl = (a: string | undefined, b: string | undefined) =>
  a?.replace(/\/+$/, '') === b?.replace(/\/+$/, '');

/**
 * Which account a store's stored settings ship with, or why none: the account they name; the
 * simulated courier; or, for settings written before carrier accounts, the declared account of
 * exactly their type, URL and secret variable. Anything else makes no call.
 */
export function resolveCarrier(
  settings: StoreSettings['courier'],
  accounts: CarrierAccounts,
  storeCode: string,
): ChosenCarrier | { problem: string } {
  const open = accountsOpenTo(accounts, storeCode);
  if (settings.account !== undefined) {
    const account = accountOf(accounts, settings.account, storeCode);
    if (account) return { name: settings.account, account };
    return {
      problem: `the carrier account "${settings.account}" is not declared for store ${storeCode} (declared: ${listed(open)})`,
    };
  }
  if (settings.type === SIMULATED_COURIER)
    return { name: SIMULATED_COURIER, account: { type: SIMULATED_COURIER } };
  const url = settings.url ?? settings.base_url;
  const variable = settings.secret_env ?? settings.api_key_env;
  const match = open.find((name) => {
    const account = accounts[name] as CarrierAccount;
    return (
      account.type === settings.type && sameUrl(account.url, url) && account.secret_env === variable
    );
  });
  if (match) return { name: match, account: accounts[match] as CarrierAccount };
  const endpoint = [
    `type ${settings.type}`,
    ...(url ? [`url ${url}`] : []),
    ...(variable ? [`secret in ${variable}`] : []),
  ].join(', ');
  return {
    problem: `the store's courier (${endpoint}) was set before carrier accounts, and this installation declares no account of that type, URL and variable for the store: declare one, or pick one with courier.account (declared: ${listed(open)})`,
  };
}

/**
 * A store's courier settings after `patch` (validated, as sent), over the `stored` ones: the
 * fields merged, and the carrier chosen again when the patch names an account, or a type other
 * than the stored one. An account sets the type; a type alone may only be `simulated`. The legacy
 * endpoint stays only while the carrier is not chosen again. `problems` name fields below
 * `path`, where the settings are (`settings.courier.account`).
 */
export function patchCourier(
  stored: StoreSettings['courier'] | undefined,
  patch: Partial<CourierSettings>,
  accounts: CarrierAccounts,
  storeCode: string,
  path = 'settings',
): { courier: Partial<CourierSettings>; legacy: LegacyCourierEndpoint; problems: ErrorDetail[] } {
  const { courier: kept, legacy } = stored
    ? splitLegacyEndpoint(stored)
    : { courier: undefined, legacy: {} };
  const merged = { ...kept, ...patch };
  const open = accountsOpenTo(accounts, storeCode);
  if (patch.account !== undefined) {
    const account = accountOf(accounts, patch.account, storeCode);
    if (!account) {
      return {
        courier: merged,
        legacy: {},
        problems: [
          {
            message: `Carrier account %fieldValue is not declared for this store. Declared: ${listed(open)}.`,
            parameters: [{ fieldName: `${path}.courier.account`, fieldValue: patch.account }],
          },
        ],
      };
    }
    const problems: ErrorDetail[] =
      patch.type === undefined || patch.type === account.type
        ? []
        : [
            {
              message: `%fieldName must be "${account.type}", the type of carrier account ${patch.account}, or be left out.`,
              parameters: [{ fieldName: `${path}.courier.type`, fieldValue: patch.type }],
            },
          ];
    return { courier: { ...merged, type: account.type }, legacy: {}, problems };
  }
  if (patch.type === undefined || patch.type === stored?.type) {
    return { courier: { type: SIMULATED_COURIER, ...merged }, legacy, problems: [] };
  }
  const { account: _dropped, ...simulated } = merged;
  if (patch.type === SIMULATED_COURIER) return { courier: simulated, legacy: {}, problems: [] };
  return {
    courier: simulated,
    legacy: {},
    problems: [
      {
        message: `A courier of type %fieldValue ships through a carrier account the installation declares: set courier.account instead. Declared for this store: ${listed(open)}.`,
        parameters: [{ fieldName: `${path}.courier.type`, fieldValue: patch.type }],
      },
    ],
  };
}

/**
 * The patch without the courier fields it sends back exactly as stored: a client that writes
 * back what it read changes nothing there, and is not refused for what it did not change.
 */
export function withoutUnchangedCourierFields(
  patch: unknown,
  stored: StoreSettings['courier'] | undefined,
): unknown {
  if (!isRecord(patch) || !isRecord(patch.courier) || !stored) return patch;
  const before: Readonly<Record<string, unknown>> = { ...stored };
  const courier = Object.fromEntries(
    Object.entries(patch.courier).filter(
      ([field, value]) => JSON.stringify(value) !== JSON.stringify(before[field]),
    ),
  );
  return { ...patch, courier };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
