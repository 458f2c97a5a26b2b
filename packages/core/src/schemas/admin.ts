import * as v from 'valibot';
import { DEADLINE_STATUSES } from '../domain/deadline.js';
import { QUEUES } from '../domain/item-stage.js';
import { OPERATOR_ROLES } from '../domain/operator.js';
import { parseTimestamp } from '../domain/timestamp.js';
import {
  boundedText,
  code,
  note,
  positiveId,
  quantity,
  requiredLabel,
  STRING_LIMITS,
} from './fields.js';
import { safetyStock, storeCode } from './operator.js';
import { ORDER_STATUSES } from './resources.js';

/** Inputs of the admin API (docs/admin-api.md). Query strings arrive as text. */

export const OperatorInput = v.object({
  name: v.pipe(
    v.string(),
    v.regex(/^[A-Za-z0-9_.@-]{1,64}$/, 'must be 1 to 64 letters, digits, "_", ".", "@" or "-"'),
  ),
  role: v.picklist(OPERATOR_ROLES, 'must be "viewer", "operator" or "admin"'),
  store_code: v.optional(v.nullable(storeCode), null),
});
export type OperatorInput = v.InferInput<typeof OperatorInput>;

export const LoginInput = v.object({
  name: requiredLabel,
  secret: boundedText(STRING_LIMITS.secret),
});

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A timestamp, or a date standing for its midnight (UTC). */
const moment = v.pipe(
  v.string(),
  v.transform((text: string) => (DATE.test(text) ? `${text} 00:00:00` : text)),
  v.check(
    (text) => parseTimestamp(text) !== null,
    'must be a timestamp "YYYY-MM-DD HH:MM:SS" or a date "YYYY-MM-DD"',
  ),
);

/** The filter of the order search and of a bulk intervention. */
export const OrderFilterInput = v.object({
  q: v.optional(boundedText(STRING_LIMITS.label)),
  status: v.optional(v.picklist(ORDER_STATUSES, 'must be an order status')),
  queue: v.optional(v.picklist(QUEUES, 'must be a queue')),
  warehouse: v.optional(code),
  sku: v.optional(code),
  created_from: v.optional(moment),
  created_to: v.optional(moment),
  updated_from: v.optional(moment),
  updated_to: v.optional(moment),
  // Deadlines (docs/deadlines.md): read at the moment of the search, or of the bulk's start.
  deadline: v.optional(
    v.picklist(DEADLINE_STATUSES, `must be one of ${DEADLINE_STATUSES.join(', ')}`),
  ),
});
export type OrderFilterInput = v.InferInput<typeof OrderFilterInput>;

/** `limit` as query text: 1 to 200. */
const limit = v.pipe(
  v.string(),
  v.regex(/^[1-9][0-9]{0,2}$/, 'must be an integer from 1 to 200'),
  v.transform(Number),
  v.maxValue(200, 'must be an integer from 1 to 200'),
);

export const PageInput = v.object({
  after: v.optional(boundedText(STRING_LIMITS.label)),
  limit: v.optional(limit, '50'),
});

/** `offset` as query text: how many rows of a list to skip, 0 to 10,000. */
const offset = v.pipe(
  v.string(),
  v.regex(/^(0|[1-9][0-9]{0,4})$/, 'must be an integer from 0 to 10000'),
  v.transform(Number),
  v.maxValue(10_000, 'must be an integer from 0 to 10000'),
);

/** A page of the open holds: `limit` rows (default 50) after the first `offset`. */
export const HoldListInput = v.object({
  limit: v.optional(limit, '50'),
  offset: v.optional(offset, '0'),
});

/** A page of the open cancellation requests; `overdue=true` keeps those past the store's time. */
export const CancellationRequestListInput = v.object({
  ...HoldListInput.entries,
  overdue: v.optional(v.picklist(['true', 'false'], 'must be "true" or "false"')),
});

export const OrderSearchInput = v.object({
  ...OrderFilterInput.entries,
  sort: v.optional(v.picklist(['id', 'fulfill_by'], 'must be "id" or "fulfill_by"')),
  ...PageInput.entries,
});

export const StockSearchInput = v.object({
  sku: v.optional(code),
  warehouse: v.optional(code),
  ...PageInput.entries,
});

/** The stock history of one warehouse and sku: 100 a page, newest first. */
export const StockHistoryInput = v.object({ after: PageInput.entries.after });

export const ReasonInput = v.object({ reason: v.optional(v.nullable(note)) });

export const FailInput = v.object({
  reason: v.pipe(note, v.trim(), v.minLength(1, 'must not be empty')),
  stage: v.optional(v.picklist(['allocation', 'shipment', 'invoice'])),
});

export const AllowPartialInput = v.object({
  allow: v.nullable(v.boolean()),
  reason: v.optional(v.nullable(note)),
});

export const MoveLinesInput = v.object({
  items: v.pipe(v.array(positiveId), v.minLength(1, 'must list at least one item')),
  warehouse_code: code,
  reason: v.optional(v.nullable(note)),
});

export const BULK_ACTIONS = ['requeue', 'abandon', 'cancel'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** How many order numbers a bulk may list: a page of a list, ticked. */
export const BULK_ORDERS_LIMIT = 200;

/** The orders a bulk acts on: those `filter` selects, or the order numbers `orders` lists. */
const bulkTarget = {
  filter: v.optional(OrderFilterInput),
  orders: v.optional(
    v.pipe(
      v.array(code),
      v.minLength(1, 'must list at least one order'),
      v.maxLength(BULK_ORDERS_LIMIT, `must list at most ${BULK_ORDERS_LIMIT} orders`),
    ),
  ),
};

/**
 * A bulk's body: `entries` beside its orders, given by a filter or by a list (what an operator
 * ticked in a list); the bulk refuses both or neither.
 */
export const bulkBody = <TEntries extends v.ObjectEntries>(entries: TEntries) =>
  v.object({ ...bulkTarget, ...entries });

export const BulkInput = bulkBody({ dry_run: v.boolean(), reason: v.optional(v.nullable(note)) });

export const SetOnHandInput = v.pipe(
  v.object({
    on_hand: v.optional(quantity),
    /** The on hand the operator saw: the set applies only while it still is (409 otherwise). */
    change_from: v.optional(quantity),
    /** This sku's own safety stock; null: back to the warehouse's. */
    safety_stock: v.optional(v.nullable(safetyStock)),
  }),
  v.forward(
    v.partialCheck(
      [['on_hand'], ['safety_stock']],
      (input) => input.on_hand !== undefined || input.safety_stock !== undefined,
      'is required (or safety_stock)',
    ),
    ['on_hand'],
  ),
  v.forward(
    v.partialCheck(
      [['on_hand'], ['change_from']],
      (input) => input.change_from === undefined || input.on_hand !== undefined,
      'is only for a set of on_hand',
    ),
    ['change_from'],
  ),
);

/** At most a week: long enough to roll a secret out, short enough to end. */
export const MAX_OVERLAP_SECONDS = 7 * 24 * 3600;

export const RotateInput = v.object({
  overlap_seconds: v.pipe(
    v.number(),
    v.safeInteger('must be an integer'),
    v.minValue(0),
    v.maxValue(MAX_OVERLAP_SECONDS, `must be at most ${MAX_OVERLAP_SECONDS}`),
  ),
});
