/** Per-action ACL resources (docs/behaviour.md). */

export const FULFILLMENT_ACTIONS = [
  'pending_accept',
  'pending_allocation',
  'pending_shipment',
  'pending_invoice',
  'failed',
  'accept',
  'reject',
  'allocate',
  'ship',
  'invoice',
] as const;

export const INVENTORY_ACTIONS = ['warehouses', 'stock_items'] as const;

export type FulfillmentAction = (typeof FULFILLMENT_ACTIONS)[number];
export type InventoryAction = (typeof INVENTORY_ACTIONS)[number];
export type ApiAction = FulfillmentAction | InventoryAction;

export const DEFAULT_ACL_PREFIX = 'Fulfil';

export function resourceOf(action: ApiAction, prefix = DEFAULT_ACL_PREFIX): string {
  const group = (INVENTORY_ACTIONS as readonly string[]).includes(action)
    ? 'Inventory'
    : 'FulfillmentOrder';
  return `${prefix}_${group}::api_${action}`;
}

export const ROLE_PRESETS = {
  partner: [
    'pending_accept',
    'pending_shipment',
    'failed',
    'accept',
    'reject',
    'ship',
    'warehouses',
    'stock_items',
  ],
  erp: ['pending_allocation', 'pending_invoice', 'failed', 'allocate', 'invoice', 'warehouses'],
  all: [...FULFILLMENT_ACTIONS, ...INVENTORY_ACTIONS],
} as const satisfies Record<string, readonly ApiAction[]>;

export type RolePreset = keyof typeof ROLE_PRESETS;

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
