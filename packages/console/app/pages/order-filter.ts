import type { DeadlineStatus, OrderStatus, QueueName } from '@fulfil/core';
import { dateTime } from '../ui/format.js';
import { DEADLINE, QUEUE, STATUS } from '../ui/words.js';

/**
 * The order search's fields (docs/admin-api.md) as the console offers them, and each active one
 * as words on its chip.
 */
export const FILTER_FIELDS = [
  'q',
  'status',
  'queue',
  'warehouse',
  'sku',
  'created_from',
  'created_to',
  'deadline',
] as const;

export type FilterField = (typeof FILTER_FIELDS)[number];
export type OrderFilter = Partial<Record<FilterField, string>>;

export function filterOf(params: URLSearchParams): OrderFilter {
  const filter: OrderFilter = {};
  for (const name of FILTER_FIELDS) {
    const value = params.get(name);
    if (value) filter[name] = value;
  }
  return filter;
}

/** Two filters select the same orders when they set the same fields to the same values. */
export function sameFilter(a: OrderFilter, b: OrderFilter): boolean {
  return FILTER_FIELDS.every((name) => (a[name] ?? '').trim() === (b[name] ?? '').trim());
}

/** A date stays a date; a timestamp (the dashboard's cut-offs) reads in the local time. */
const moment = (value: string) => (value.length > 10 ? dateTime(value) : value);

/** The filter's chip: `Status: Failed`, `Created before 26 Nov 2026, 10:04`. */
export function chipLabel(name: FilterField, value: string): string {
  switch (name) {
    case 'q':
      return `Search: “${value}”`;
    case 'status':
      return `Status: ${STATUS[value as OrderStatus]?.words ?? value}`;
    case 'queue':
      return `Queue: ${QUEUE[value as QueueName] ?? value}`;
    case 'warehouse':
      return `Warehouse: ${value}`;
    case 'sku':
      return `SKU: ${value}`;
    case 'created_from':
      return `Created from ${moment(value)}`;
    case 'created_to':
      return `Created before ${moment(value)}`;
    case 'deadline':
      return `Deadline: ${DEADLINE[value as DeadlineStatus]?.words ?? value}`;
  }
}

/** The filter in words, for a confirmation: `Status: Failed, Warehouse: WH-A`. */
export function filterWords(filter: OrderFilter): string {
  const chips = FILTER_FIELDS.filter((name) => filter[name]).map((name) =>
    chipLabel(name, filter[name] as string),
  );
  return chips.length ? chips.join(', ') : 'no filter: every order of the store';
}
