/**
 * Per-action ACL resources (docs/behaviour.md), as data: each action of the public surface is one
 * row naming the group of its resource, `<prefix>_<group>::api_<name>` (the name is the action's
 * own unless the row gives another). A new resource is a new row; a role preset is a list of rows.
 */
export const ACL_RESOURCES = {
  pending_accept: { group: 'FulfillmentOrder' },
  pending_allocation: { group: 'FulfillmentOrder' },
  pending_shipment: { group: 'FulfillmentOrder' },
  pending_invoice: { group: 'FulfillmentOrder' },
  failed: { group: 'FulfillmentOrder' },
  accept: { group: 'FulfillmentOrder' },
  reject: { group: 'FulfillmentOrder' },
  allocate: { group: 'FulfillmentOrder' },
  ship: { group: 'FulfillmentOrder' },
  invoice: { group: 'FulfillmentOrder' },
  // A partner's answers to cancellation requests (docs/partner-guide.md).
  pending_cancellation: { group: 'FulfillmentOrder' },
  accept_cancellation: { group: 'FulfillmentOrder' },
  reject_cancellation: { group: 'FulfillmentOrder' },
  warehouses: { group: 'Inventory' },
  stock_items: { group: 'Inventory' },
  // Changes of on hand by a delta, each with its reason (docs/partner-guide.md).
  stock_adjust: { group: 'Inventory' },
  // A sales channel (docs/channel-guide.md): takes sales orders in and follows them.
  create_sales_order: { group: 'SalesOrder', name: 'create' },
  read_sales_orders: { group: 'SalesOrder', name: 'read' },
  cancel_sales_order: { group: 'SalesOrder', name: 'cancel' },
  hold_sales_order: { group: 'SalesOrder', name: 'hold' },
  // Returns (docs/channel-guide.md): a channel opens them, a partner receives, an ERP credits.
  create_return: { group: 'Return', name: 'create' },
  returns_pending_receipt: { group: 'Return', name: 'pending_receipt' },
  receive_return: { group: 'Return', name: 'receive' },
  returns_pending_credit: { group: 'Return', name: 'pending_credit' },
  credit_return: { group: 'Return', name: 'credit' },
} as const satisfies Record<string, { group: string; name?: string }>;

export type ApiAction = keyof typeof ACL_RESOURCES;
export type AclGroup = (typeof ACL_RESOURCES)[ApiAction]['group'];

/** Every action, in the order of the table. */
export const API_ACTIONS = Object.keys(ACL_RESOURCES) as ApiAction[];

/** The actions whose resources are in `group`, in the order of the table. */
export function actionsOf(group: AclGroup): ApiAction[] {
  return API_ACTIONS.filter((action) => ACL_RESOURCES[action].group === group);
}

/** The actions of fulfillment orders: the contract's ten and the answers to cancellations. */
export const FULFILLMENT_ACTIONS = actionsOf('FulfillmentOrder');
/** Listing warehouses, syncing and adjusting stock. */
export const INVENTORY_ACTIONS = actionsOf('Inventory');

export const DEFAULT_ACL_PREFIX = 'Fulfil';

/**
 * The actions only a token of the whole store may take (docs/channel-guide.md): a sales order
 * and its returns span warehouses, so a token limited to some is refused them.
 */
export const STORE_WIDE_ACTIONS: readonly ApiAction[] = [
  ...actionsOf('SalesOrder'),
  'create_return',
];

export function isApiAction(value: string): value is ApiAction {
  return Object.hasOwn(ACL_RESOURCES, value);
}

export function resourceOf(action: ApiAction, prefix = DEFAULT_ACL_PREFIX): string {
  const row: { group: string; name?: string } = ACL_RESOURCES[action];
  return `${prefix}_${row.group}::api_${row.name ?? action}`;
}

/**
 * The entries of a resource list that name no resource under `prefix`, with their index: a token
 * granted `read_sales_orders` (an action, not its resource) would silently grant nothing.
 */
export function unknownResources(
  acl: string | readonly string[],
  prefix = DEFAULT_ACL_PREFIX,
): { index: number; resource: string }[] {
  if (typeof acl === 'string') return [];
  const known = new Set(API_ACTIONS.map((action) => resourceOf(action, prefix)));
  return acl.flatMap((resource, index) => (known.has(resource) ? [] : [{ index, resource }]));
}

/** How a refusal of an unknown resource reads, with an example of one that exists. */
export function unknownResourceMessage(prefix = DEFAULT_ACL_PREFIX): string {
  return `Unknown ACL resource %fieldValue: resources are written like ${resourceOf('read_sales_orders', prefix)}, or use a role preset.`;
}

export const ROLE_PRESETS = {
  partner: [
    'pending_accept',
    'pending_shipment',
    'failed',
    'accept',
    'reject',
    'ship',
    'pending_cancellation',
    'accept_cancellation',
    'reject_cancellation',
    'warehouses',
    'stock_items',
    'stock_adjust',
    'returns_pending_receipt',
    'receive_return',
  ],
  erp: [
    'pending_allocation',
    'pending_invoice',
    'failed',
    'allocate',
    'invoice',
    'warehouses',
    'returns_pending_credit',
    'credit_return',
  ],
  /** Every resource of a sales order, and opening returns (docs/channel-guide.md). */
  channel: STORE_WIDE_ACTIONS,
  all: API_ACTIONS,
} as const satisfies Record<string, readonly ApiAction[]>;

export type RolePreset = keyof typeof ROLE_PRESETS;

/** The presets' names, in the order a person reads them: `partner, erp, channel, all`. */
export const ROLE_PRESET_NAMES = Object.keys(ROLE_PRESETS) as RolePreset[];

export function isRolePreset(value: string): value is RolePreset {
  return Object.hasOwn(ROLE_PRESETS, value);
}

/** The resources a role preset grants, or the given list unchanged. */
export function resolveAcl(
  acl: RolePreset | readonly string[],
  prefix = DEFAULT_ACL_PREFIX,
): string[] {
  if (typeof acl === 'string') return ROLE_PRESETS[acl].map((action) => resourceOf(action, prefix));
  return [...acl];
}
