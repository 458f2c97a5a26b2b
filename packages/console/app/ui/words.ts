import type {
  ApiAction,
  BulkAction,
  CancellationReason,
  DeadlineStatus,
  FailureStage,
  FulfilledBy,
  HoldReason,
  ItemStatus,
  LabelStatus,
  OperatorRole,
  OrderStatus,
  QueueName,
  ReturnReason,
  ReturnStatus,
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

/** How an order stands against its `fulfill_by` (docs/deadlines.md). */
export const DEADLINE: Record<DeadlineStatus, { words: string; tone: Tone }> = {
  on_track: { words: 'On track', tone: 'neutral' },
  at_risk: { words: 'At risk', tone: 'warning' },
  overdue: { words: 'Overdue', tone: 'critical' },
  met: { words: 'Shipped on time', tone: 'success' },
  missed: { words: 'Shipped late', tone: 'attention' },
};

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

/** A return's status (docs/channel-guide.md, Returns), by what it waits for. */
export const RETURN_STATUS: Record<ReturnStatus, { words: string; tone: Tone }> = {
  pending_receipt: { words: 'Awaiting receipt', tone: 'attention' },
  pending_credit: { words: 'Awaiting credit', tone: 'info' },
  credited: { words: 'Credited', tone: 'success' },
  closed: { words: 'Closed, nothing received', tone: 'neutral' },
  canceled: { words: 'Canceled', tone: 'neutral' },
};

/** Why a customer sent a line back. */
export const RETURN_REASON: Record<ReturnReason, string> = {
  damaged: 'Damaged',
  wrong_item: 'Wrong item',
  not_as_described: 'Not as described',
  unwanted: 'Unwanted',
  other: 'Other',
};

/** Why a sales order is held (docs/channel-guide.md, Holds and cancellations). */
export const HOLD_REASON: Record<HoldReason, string> = {
  awaiting_payment: 'Awaiting payment',
  high_risk_of_fraud: 'High risk of fraud',
  incorrect_address: 'Incorrect address',
  inventory_out_of_stock: 'Out of stock',
  other: 'Other',
};

/** Why lines are canceled, as a cancellation request gives it to the partner. */
export const CANCELLATION_REASON: Record<CancellationReason, string> = {
  customer: 'Asked by the customer',
  fraud: 'Fraud',
  inventory: 'Out of stock',
  other: 'Other',
};

/** Where a cancellation request stands: the partner's answer. */
export const CANCELLATION_STATUS: Record<
  'open' | 'accepted' | 'rejected',
  { words: string; tone: Tone }
> = {
  open: { words: 'Cancellation requested', tone: 'warning' },
  accepted: { words: 'Accepted by the partner', tone: 'neutral' },
  rejected: { words: 'Refused by the partner', tone: 'neutral' },
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
  pending_cancellation: 'Cancellation requested',
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
  channel: 'Sales channel',
  shared: 'Partner and ERP',
};

/**
 * What each resource allows, the role whose preset holds it, and the resource as core's ACL table
 * names it below its prefix (`<group>::api_<name>`; test/words.test.ts checks they agree).
 */
export const ACL_ACTION: Record<ApiAction, { words: string; group: AclGroup; resource: string }> = {
  pending_accept: {
    words: 'Poll orders awaiting acceptance',
    group: 'partner',
    resource: 'FulfillmentOrder::api_pending_accept',
  },
  accept: { words: 'Accept', group: 'partner', resource: 'FulfillmentOrder::api_accept' },
  reject: { words: 'Reject', group: 'partner', resource: 'FulfillmentOrder::api_reject' },
  pending_shipment: {
    words: 'Poll ready-to-ship orders',
    group: 'partner',
    resource: 'FulfillmentOrder::api_pending_shipment',
  },
  ship: { words: 'Ship', group: 'partner', resource: 'FulfillmentOrder::api_ship' },
  pending_cancellation: {
    words: 'Poll cancellation requests',
    group: 'partner',
    resource: 'FulfillmentOrder::api_pending_cancellation',
  },
  accept_cancellation: {
    words: 'Accept cancellations',
    group: 'partner',
    resource: 'FulfillmentOrder::api_accept_cancellation',
  },
  reject_cancellation: {
    words: 'Reject cancellations',
    group: 'partner',
    resource: 'FulfillmentOrder::api_reject_cancellation',
  },
  stock_items: { words: 'Update stock', group: 'partner', resource: 'Inventory::api_stock_items' },
  stock_adjust: {
    words: 'Adjust stock',
    group: 'partner',
    resource: 'Inventory::api_stock_adjust',
  },
  pending_allocation: {
    words: 'Poll orders awaiting allocation',
    group: 'erp',
    resource: 'FulfillmentOrder::api_pending_allocation',
  },
  allocate: { words: 'Allocate', group: 'erp', resource: 'FulfillmentOrder::api_allocate' },
  pending_invoice: {
    words: 'Poll orders awaiting invoice',
    group: 'erp',
    resource: 'FulfillmentOrder::api_pending_invoice',
  },
  invoice: { words: 'Invoice', group: 'erp', resource: 'FulfillmentOrder::api_invoice' },
  failed: {
    words: 'Poll failed orders',
    group: 'shared',
    resource: 'FulfillmentOrder::api_failed',
  },
  warehouses: { words: 'Read warehouses', group: 'shared', resource: 'Inventory::api_warehouses' },
  create_sales_order: {
    words: 'Hand in sales orders',
    group: 'channel',
    resource: 'SalesOrder::api_create',
  },
  read_sales_orders: {
    words: 'Read and follow sales orders',
    group: 'channel',
    resource: 'SalesOrder::api_read',
  },
  cancel_sales_order: {
    words: 'Cancel sales orders',
    group: 'channel',
    resource: 'SalesOrder::api_cancel',
  },
  hold_sales_order: {
    words: 'Hold and release sales orders',
    group: 'channel',
    resource: 'SalesOrder::api_hold',
  },
  create_return: { words: 'Open returns', group: 'channel', resource: 'Return::api_create' },
  returns_pending_receipt: {
    words: 'Poll returns awaiting receipt',
    group: 'partner',
    resource: 'Return::api_pending_receipt',
  },
  receive_return: { words: 'Receive returns', group: 'partner', resource: 'Return::api_receive' },
  returns_pending_credit: {
    words: 'Poll returns awaiting credit',
    group: 'erp',
    resource: 'Return::api_pending_credit',
  },
  credit_return: { words: 'Credit returns', group: 'erp', resource: 'Return::api_credit' },
};

/** The role presets a token is created with. */
export const ROLE_PRESET: Record<RolePreset, string> = {
  partner: 'Partner',
  erp: 'ERP',
  channel: 'Sales channel',
  all: 'All',
};

const ACL_ACTIONS = Object.keys(ACL_ACTION) as ApiAction[];

/** `Fulfil_FulfillmentOrder::api_ship` → `ship`; null for a resource of no known shape. */
export function aclActionOf(resource: string): ApiAction | null {
  return ACL_ACTIONS.find((action) => resource.endsWith(`_${ACL_ACTION[action].resource}`)) ?? null;
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
  if (ACL_ACTIONS.every((action) => actions.has(action))) return 'all';
  for (const preset of ['partner', 'erp', 'channel'] as const) {
    const own = ACL_ACTIONS.filter((action) => {
      const group = ACL_ACTION[action].group;
      return group === preset || (group === 'shared' && preset !== 'channel');
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
