import type { LineDecision, RoutingDecision } from './explanation.js';
import type { RoutingRule } from './rules.js';
import type { Destination } from './snapshot.js';
import { describeLine } from './words.js';

/** Why a sales order's lines went where they went: the rules' decision, or a custom router's. */
export type RoutingRecord = { by: 'rules'; decision: RoutingDecision } | { by: 'router' };

/**
 * The most lines one timeline entry explains, and the most warehouses it lists per line as
 * considered and as excluded (docs/routing.md): past them, it counts the rest. An entry thus
 * stays within a few tens of kB however many lines and warehouses there are; the words of each
 * line name five warehouses per clause at most.
 */
export const EXPLAINED_LINES = 20;
export const LISTED_WAREHOUSES = 8;

/**
 * One line's explanation as the timeline and the admin API keep it: the decision's line
 * (`considered` best first and `excluded` by code, each at most `LISTED_WAREHOUSES`, the rest
 * counted), and its words.
 */
export interface ExplainedLine extends LineDecision {
  considered_more: number;
  excluded_more: number;
  /** The line's decision in words. */
  words: string;
}

/** A routing explanation as recorded: what decided, and per line why. */
export interface RoutingExplanation {
  /** `rules`: the store's routing rules decided; `router`: the engine's custom router did. */
  by: 'rules' | 'router';
  /** The rules in effect (`rules` only). */
  rules?: RoutingRule[];
  destination?: Destination;
  /** At most `EXPLAINED_LINES`, in the lines' order; `lines_more` counts the rest. */
  lines: ExplainedLine[];
  lines_more: number;
}

/**
 * The explanation of the lines of `record` that `keep` selects (the lines of one fulfillment
 * order), bounded in size. A custom router explains no more than where each line went.
 */
export function explainRouting(
  record: RoutingRecord,
  lines: readonly { line: number; sku: string; qty: number; warehouse_code: string }[],
): RoutingExplanation {
  if (record.by === 'router') {
    return {
      by: 'router',
      lines: lines.slice(0, EXPLAINED_LINES).map((line) => ({
        line: line.line,
        sku: line.sku,
        qty: line.qty,
        parts: [{ warehouse_code: line.warehouse_code, qty: line.qty }],
        decided_by: null,
        short: false,
        optimal: true,
        considered: [],
        considered_more: 0,
        excluded: [],
        excluded_more: 0,
        words: `Routed to ${line.warehouse_code} by the custom router`,
      })),
      lines_more: Math.max(0, lines.length - EXPLAINED_LINES),
    };
  }
  const { decision } = record;
  const wanted = [...new Set(lines.map((line) => line.line))];
  const explained = wanted.slice(0, EXPLAINED_LINES).flatMap((index) => {
    const line = decision.lines.find((candidate) => candidate.line === index);
    if (!line) return [];
    return [
      {
        line: line.line,
        sku: line.sku,
        qty: line.qty,
        parts: line.parts,
        decided_by: line.decided_by,
        short: line.short,
        optimal: line.optimal,
        considered: line.considered.slice(0, LISTED_WAREHOUSES),
        considered_more: Math.max(0, line.considered.length - LISTED_WAREHOUSES),
        excluded: line.excluded.slice(0, LISTED_WAREHOUSES),
        excluded_more: Math.max(0, line.excluded.length - LISTED_WAREHOUSES),
        words: describeLine(decision, line),
      },
    ];
  });
  return {
    by: 'rules',
    rules: [...decision.rules],
    destination: decision.destination,
    lines: explained,
    lines_more: Math.max(0, wanted.length - EXPLAINED_LINES),
  };
}

/**
 * The explanation of lines decided one decision each (rerouting decides each rejected line on
 * its own), the first line of each: as one explanation, lines numbered in the given order.
 */
export function explainEach(decisions: readonly RoutingDecision[]): RoutingExplanation {
  const explained = decisions.slice(0, EXPLAINED_LINES).flatMap((decision, index) => {
    const [line] = explainRouting({ by: 'rules', decision }, [
      { line: 0, sku: '', qty: 0, warehouse_code: '' },
    ]).lines;
    return line ? [{ ...line, line: index }] : [];
  });
  const [first] = decisions;
  return {
    by: 'rules',
    ...(first ? { rules: [...first.rules], destination: first.destination } : {}),
    lines: explained,
    lines_more: Math.max(0, decisions.length - EXPLAINED_LINES),
  };
}
