import * as v from 'valibot';
import { isRolePreset, ROLE_PRESET_NAMES } from '../domain/acl.js';
import { ATTENTION_QUEUES } from '../domain/attention.js';
import { isCountryCode } from '../domain/countries.js';
import { ROUTING_RULES, WHEN_SHORT } from '../domain/routing/rules.js';
import { isTimeZone } from '../domain/time-zone.js';
import { atRiskHours, CalendarFieldsInput } from './calendar.js';
import {
  boundedText,
  code,
  int32,
  label,
  latitude,
  longitude,
  quantity,
  requiredLabel,
  STRING_LIMITS,
  timestamp,
} from './fields.js';
import { StockItem } from './requests.js';
import { SalesOrderInput } from './sales-order.js';

/** Inputs of the operator side (docs/behaviour.md) and the seed file (§9). */

export const storeCode = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, "_" or "-"'),
);

const envName = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'must name an environment variable'),
);
const httpUrl = v.pipe(
  boundedText(2048),
  v.regex(/^https?:\/\/[^\s]+$/, 'must be an http or https URL'),
);

/** A store names no URL and no secret variable: it picks one of the installation's accounts. */
const setByTheInstallation = v.optional(
  v.pipe(
    v.never("is the installation's to set: pick a carrier account with courier.account"),
    v.description(
      "Refused: the carrier account (`account`) holds the URL and the secret's variable.",
    ),
  ),
);

/** The courier settings a store may write (docs/couriers.md). */
export const CourierSettingsInput = v.object({
  type: v.optional(
    v.pipe(code, v.description('`simulated`, the default; any other type comes with the account.')),
  ),
  account: v.optional(
    v.pipe(
      code,
      v.description(
        "One of the installation's carrier accounts declared for the store, by name: where the courier's calls go and with which secret (docs/couriers.md).",
      ),
    ),
  ),
  fail_skus: v.optional(v.array(code), []),
  max_attempts: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 3),
  delay_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(60_000)), 0),
  rate_per_second: v.optional(v.pipe(v.number(), v.minValue(0.01), v.maxValue(10_000))),
  carrier_id: v.optional(code),
  service_code: v.optional(code),
  warehouse_id: v.optional(code),
  ship_from: v.optional(
    v.object({
      name: requiredLabel,
      phone: requiredLabel,
      company_name: v.optional(label),
      address_line1: requiredLabel,
      city_locality: requiredLabel,
      state_province: requiredLabel,
      postal_code: requiredLabel,
      country_code: v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, 'must be a two-letter country code')),
    }),
  ),
  // Where releases before carrier accounts took a URL and a variable: refused by name.
  api_key_env: setByTheInstallation,
  base_url: setByTheInstallation,
  secret_env: setByTheInstallation,
  url: setByTheInstallation,
});

/**
 * The installation's carrier accounts (docs/couriers.md), by name: `createEngine({
 * carrierAccounts })` and the file of `fulfil serve --carriers`.
 */
export const CarrierAccountsInput = v.record(
  code,
  v.strictObject({
    type: code,
    url: v.optional(httpUrl),
    secret_env: v.optional(envName),
    stores: v.optional(v.array(storeCode)),
  }),
);

let currencies: Set<string> | undefined;

/** An ISO 4217 code the runtime knows (`EUR`, `USD`, `JPY`). */
const currencyCode = v.pipe(
  v.string(),
  v.check((code) => {
    currencies ??= new Set(Intl.supportedValuesOf('currency'));
    return currencies.has(code);
  }, 'must be an ISO 4217 currency code such as "EUR"'),
);

/** Hours in a queue, a year at most; null: the queue never calls for a person by age. */
const attentionHours = v.optional(
  v.nullable(
    v.pipe(
      v.number(),
      v.integer('must be a whole number of hours'),
      v.minValue(1, 'must be at least 1 hour'),
      v.maxValue(8760, 'must be at most 8760 hours (a year)'),
    ),
  ),
);

export const AttentionInput = v.object(
  Object.fromEntries(ATTENTION_QUEUES.map((queue) => [queue, attentionHours])) as Record<
    (typeof ATTENTION_QUEUES)[number],
    typeof attentionHours
  >,
);

// ── routing (docs/routing.md) ──────────────────────────────────────────────────────────────

/** The routing rules, in order: each known, each once. */
const RoutingInput = v.pipe(
  v.array(
    v.picklist(
      ROUTING_RULES,
      `must be one of ${ROUTING_RULES.map((rule) => `"${rule}"`).join(', ')}`,
    ),
  ),
  v.minLength(1, 'must list at least one rule'),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const seen = new Set<string>();
    for (const [index, rule] of dataset.value.entries()) {
      if (seen.has(rule))
        addIssue({
          message: `must name each rule once: "${rule}" is there twice`,
          path: [
            {
              type: 'array',
              origin: 'value',
              input: dataset.value,
              key: index,
              value: rule,
            },
          ],
        });
      seen.add(rule);
    }
  }),
);

/** How many warehouses the fewest-shipments search tries at most. */
const maxShipments = v.pipe(
  v.number(),
  v.integer('must be a whole number'),
  v.minValue(1, 'must be at least 1'),
  v.maxValue(50, 'must be at most 50'),
);

export const StoreSettingsInput = v.object({
  partial_items: v.optional(v.boolean(), false),
  partial_qty: v.optional(v.boolean(), false),
  reroute: v.optional(v.boolean(), true),
  courier: v.optional(CourierSettingsInput, {}),
  currency: v.optional(v.nullable(currencyCode)),
  attention_after_hours: v.optional(AttentionInput),
  // Routing: absent, each takes its default (domain/routing/rules.ts), which a store keeps
  // following when the default changes.
  routing: v.optional(RoutingInput),
  max_shipments: v.optional(maxShipments),
  split_lines: v.optional(v.boolean()),
  when_short: v.optional(
    v.picklist(WHEN_SHORT, `must be ${WHEN_SHORT.map((w) => `"${w}"`).join(' or ')}`),
  ),
  // Deadlines (docs/deadlines.md).
  at_risk_hours: v.optional(atRiskHours),
  calendar: v.optional(CalendarFieldsInput),
});

/** Settings to change (the admin API's `PUT /stores/:store`): each field optional. */
export const StoreSettingsPatchInput = v.partial(StoreSettingsInput);

export { latitude, longitude };

/** An ISO 3166-1 alpha-2 country code. */
export const countryCode = v.pipe(
  v.string(),
  v.check(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code such as "IT"'),
);

/** An IANA time zone the runtime knows (`Europe/Rome`), as written there. */
export const timeZone = v.pipe(
  v.string(),
  v.check(isTimeZone, 'must be an IANA time zone such as "Europe/Rome"'),
);

/** Units kept back from routing (docs/behaviour.md, Stock). */
export const safetyStock = v.pipe(
  v.number(),
  v.integer('must be a whole number of units'),
  v.minValue(0, 'must be at least 0'),
  v.maxValue(1_000_000_000, 'must be at most 1000000000'),
);

export const WarehouseInput = v.pipe(
  v.object({
    code,
    name: label,
    active: v.optional(v.boolean(), true),
    fulfilled_by: v.optional(v.picklist(['partner', 'courier']), 'partner'),
    priority: v.optional(int32, 0),
    // Routing (docs/routing.md): null, the warehouse has none.
    latitude: v.optional(v.nullable(latitude), null),
    longitude: v.optional(v.nullable(longitude), null),
    countries: v.optional(
      v.nullable(
        v.pipe(
          v.array(countryCode),
          v.minLength(1, 'must list at least one country, or be null for every country'),
          v.check((codes) => new Set(codes).size === codes.length, 'must name each country once'),
        ),
      ),
      null,
    ),
    daily_capacity: v.optional(
      v.nullable(
        v.pipe(
          v.number(),
          v.integer('must be a whole number of orders'),
          v.minValue(1, 'must be at least 1'),
          v.maxValue(10_000_000, 'must be at most 10000000'),
        ),
      ),
      null,
    ),
    /** The safety stock of each sku without its own. */
    safety_stock: v.optional(safetyStock, 0),
    // Its calendar (docs/deadlines.md): null, the store's.
    ...CalendarFieldsInput.entries,
    /** Where its day begins, for its daily capacity and its deadlines; null: UTC. */
    timezone: v.optional(v.nullable(timeZone), null),
  }),
  v.forward(
    v.partialCheck(
      [['latitude'], ['longitude']],
      (warehouse) => (warehouse.latitude === null) === (warehouse.longitude === null),
      'must be given with latitude (both, or neither)',
    ),
    ['longitude'],
  ),
);

export const MIN_TOKEN_LENGTH = 32;

const ACL_MESSAGE = `must be ${ROLE_PRESET_NAMES.map((name) => `"${name}"`).join(', ')} or a list of resources`;

export const TokenInput = v.object({
  name: requiredLabel,
  /** A chosen secret (seed files, tests); omitted, one is generated. */
  token: v.optional(
    v.pipe(
      boundedText(STRING_LIMITS.secret),
      v.minLength(MIN_TOKEN_LENGTH, `must be at least ${MIN_TOKEN_LENGTH} characters`),
    ),
  ),
  acl: v.union(
    [v.pipe(v.string(), v.check(isRolePreset, ACL_MESSAGE)), v.pipe(v.array(code), v.minLength(1))],
    ACL_MESSAGE,
  ),
  warehouses: v.optional(v.nullable(v.array(code)), null),
  expires_at: v.optional(v.nullable(timestamp), null),
});

export const SeedStore = v.object({
  code: storeCode,
  settings: v.optional(StoreSettingsInput, {}),
  warehouses: v.optional(v.array(WarehouseInput), []),
  stock: v.optional(
    v.array(
      v.object({
        ...StockItem.entries,
        qty: quantity,
        /** This sku's own safety stock there; absent: the warehouse's. */
        safety_stock: v.optional(safetyStock),
      }),
    ),
    [],
  ),
  tokens: v.optional(v.array(TokenInput), []),
  orders: v.optional(v.array(SalesOrderInput), []),
});

export const SeedFile = v.object({
  stores: v.pipe(v.array(SeedStore), v.minLength(1, 'must list at least one store')),
});

// What a caller sends (a schema and its input type share the name) and what it is parsed into.
export type StoreSettingsInput = v.InferInput<typeof StoreSettingsInput>;
/** Settings to change: every field optional, the courier's patched field by field. */
export type StoreSettingsPatch = StoreSettingsInput;
export type WarehouseInput = v.InferInput<typeof WarehouseInput>;
export type TokenInput = v.InferInput<typeof TokenInput>;
/** A seed file: stores with their settings, warehouses, stock, tokens and sales orders. */
export type SeedInput = v.InferInput<typeof SeedFile>;
export type WarehouseSpec = v.InferOutput<typeof WarehouseInput>;
export type TokenSpec = v.InferOutput<typeof TokenInput>;
export type Seed = v.InferOutput<typeof SeedFile>;
