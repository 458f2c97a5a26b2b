import type {
  ApiAction,
  BulkAction,
  FailureStage,
  FulfilledBy,
  ItemStatus,
  LabelStatus,
  OperatorRole,
  OrderStatus,
  QueueName,
  RolePreset,
} from '@fulfil/core';

/**
 * The words an operator reads for each identifier of the API (statuses, queues, stages, roles,
 * ACL resources, …), in one place: a new status or resource gets its words here, and the
 * typechecker (or, for ACL resources, test/words.test.ts) says when one has none. The
 * identifiers stay in the API, and in a tooltip for those who integrate.
 */

/** A badge's colour, by what it asks of the operator. */
export type Tone = 'info' | 'success' | 'attention' | 'warning' | 'critical' | 'neutral';

export const STATUS: Record<OrderStatus, { words: string; tone: Tone }> = {
  pending_accept: { words: 'Awaiting acceptance', tone: 'attention' },
  partially_accepted: { words: 'Partly accepted', tone: 'attention' },
  pending_allocation: { words: 'Awaiting allocation', tone: 'info' },
  partially_allocated: { words: 'Partly allocated', tone: 'info' },
  pending_shipment: { words: 'Ready to ship', tone: 'info' },
  partially_shipped: { words: 'Partly shipped', tone: 'info' },
  pending_invoice: { words: 'Awaiting invoice', tone: 'info' },
  partially_invoiced: { words: 'Partly invoiced', tone: 'info' },
  invoiced: { words: 'Invoiced', tone: 'success' },
  failed: { words: 'Failed', tone: 'critical' },
  rejected: { words: 'Rejected', tone: 'neutral' },
  canceled: { words: 'Canceled', tone: 'neutral' },
};

/** The stage of one line; a shipped line awaits its invoice. */
export const ITEM_STAGE: Record<ItemStatus, { words: string; tone: Tone }> = {
  pending_accept: { words: 'Awaiting acceptance', tone: 'attention' },
  pending_allocation: { words: 'Awaiting allocation', tone: 'info' },
  pending_shipment: { words: 'Ready to ship', tone: 'info' },
  pending_invoice: { words: 'Shipped, awaiting invoice', tone: 'info' },
  invoiced: { words: 'Invoiced', tone: 'success' },
  rejected: { words: 'Rejected', tone: 'neutral' },
  canceled: { words: 'Canceled', tone: 'neutral' },
};

/** Lines in the order an order moves through its stages, then those that left the flow. */
export const ITEM_STAGE_ORDER: readonly ItemStatus[] = [
  'pending_accept',
  'pending_allocation',
  'pending_shipment',
  'pending_invoice',
  'invoiced',
  'rejected',
  'canceled',
];

export const QUEUE: Record<QueueName, string> = {
  pending_accept: 'Awaiting acceptance',
  pending_allocation: 'Awaiting allocation',
  pending_shipment: 'Ready to ship',
  pending_invoice: 'Awaiting invoice',
  failed: 'Failed',
};

export const FULFILLED_BY: Record<FulfilledBy, string> = {
  partner: 'Partner',
  courier: 'Courier',
};

export const OPERATOR_ROLE: Record<OperatorRole, { words: string; may: string }> = {
  viewer: { words: 'Viewer', may: 'reads' },
  operator: { words: 'Operator', may: 'also intervenes' },
  admin: { words: 'Admin', may: 'manages all' },
};

export const BULK_ACTION: Record<BulkAction, string> = {
  requeue: 'Requeue',
  abandon: 'Abandon',
  cancel: 'Cancel',
};

export const BULK_OUTCOME: Record<'done' | 'skipped' | 'failed', { words: string; tone: Tone }> = {
  done: { words: 'Done', tone: 'success' },
  skipped: { words: 'Skipped', tone: 'neutral' },
  failed: { words: 'Failed', tone: 'critical' },
};

export const LABEL_STATUS: Record<LabelStatus, { words: string; tone: Tone }> = {
  pending: { words: 'Being issued', tone: 'info' },
  live: { words: 'Ready to print', tone: 'success' },
  voiding: { words: 'Being voided', tone: 'attention' },
  void_failed: { words: 'Void failed', tone: 'critical' },
  voided: { words: 'Voided', tone: 'neutral' },
};

/** Why an order failed, as a sentence that is true of where it stood. */
export function failureWords(
  stage: FailureStage,
  openLines: readonly ItemStatus[],
  warehouse: string,
): string {
  if (stage === 'allocation') {
    return openLines.includes('pending_accept')
      ? `Failed before ${warehouse} accepted it`
      : 'Failed before the ERP allocated it';
  }
  return stage === 'shipment'
    ? `Failed before ${warehouse} shipped it`
    : 'Failed before its invoice';
}

// ── ACL resources, grouped by the role that uses them ──

/** Who uses a resource: the role preset it belongs to (`shared`: both partner and ERP). */
export type AclGroup = Exclude<RolePreset, 'all'> | 'shared';

export const ACL_GROUP: Record<AclGroup, string> = {
  partner: 'Partner',
  erp: 'ERP',
  shared: 'Partner and ERP',
};

/** What each resource allows, and the role whose preset holds it. */
export const ACL_ACTION: Record<ApiAction, { words: string; group: AclGroup }> = {
  pending_accept: { words: 'Poll orders awaiting acceptance', group: 'partner' },
  accept: { words: 'Accept', group: 'partner' },
  reject: { words: 'Reject', group: 'partner' },
  pending_shipment: { words: 'Poll ready-to-ship orders', group: 'partner' },
  ship: { words: 'Ship', group: 'partner' },
  stock_items: { words: 'Update stock', group: 'partner' },
  pending_allocation: { words: 'Poll orders awaiting allocation', group: 'erp' },
  allocate: { words: 'Allocate', group: 'erp' },
  pending_invoice: { words: 'Poll orders awaiting invoice', group: 'erp' },
  invoice: { words: 'Invoice', group: 'erp' },
  failed: { words: 'Poll failed orders', group: 'shared' },
  warehouses: { words: 'Read warehouses', group: 'shared' },
};

/** The role presets a token is created with. */
export const ROLE_PRESET: Record<RolePreset, string> = {
  partner: 'Partner',
  erp: 'ERP',
  all: 'All',
};

/** `Fulfil_FulfillmentOrder::api_ship` → `ship`; null for a resource of no known shape. */
export function aclActionOf(resource: string): ApiAction | null {
  const action = /::api_(\w+)$/.exec(resource)?.[1];
  return action && Object.hasOwn(ACL_ACTION, action) ? (action as ApiAction) : null;
}

/** A token's resources in words, grouped by role; a resource of no known shape as itself. */
export function aclGroups(resources: readonly string[]): { group: string; words: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const resource of resources) {
    const action = aclActionOf(resource);
    const group = action ? ACL_GROUP[ACL_ACTION[action].group] : 'Other';
    groups.set(group, [...(groups.get(group) ?? []), action ? ACL_ACTION[action].words : resource]);
  }
  return [...groups].map(([group, words]) => ({ group, words }));
}

/** The preset whose resources are exactly these, if one is. */
export function presetOf(resources: readonly string[]): RolePreset | null {
  const actions = new Set(resources.map(aclActionOf));
  if (actions.has(null) || actions.size !== resources.length) return null;
  const all = Object.keys(ACL_ACTION) as ApiAction[];
  if (all.every((action) => actions.has(action))) return 'all';
  for (const preset of ['partner', 'erp'] as const) {
    const own = all.filter((action) => {
      const group = ACL_ACTION[action].group;
      return group === preset || group === 'shared';
    });
    if (own.length === actions.size && own.every((action) => actions.has(action))) return preset;
  }
  return null;
}

/** `move_lines` → `Move lines`: an identifier nobody gave words yet, still read as words. */
export function humanize(identifier: string): string {
  const text = identifier.replace(/[_-]+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}
