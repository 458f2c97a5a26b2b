import {
  INTAKE_BATCH_SIZE,
  type IntakeOutcome,
  parseWith,
  SalesOrderInput,
  unverified,
} from '@fulfil/core';
import { type Command, withEngine } from '../command.js';
import { describeError } from '../describe-error.js';
import { openInput } from '../input-file.js';
import { describePlace, type JsonRecord, jsonRecords, type RecordPlace } from '../ndjson.js';
import { streamProgress } from '../stream-progress.js';

/** Refusals listed one by one in the summary; past this they are only counted (bounded memory). */
const LISTED_REFUSALS = 1000;

interface Refusal {
  line?: number;
  index?: number;
  sales_order_number: string | null;
  error: string;
}

/** What `orders import` reports at the end. */
export interface ImportSummary {
  /** Sales orders taken in by this run. */
  taken_in: number;
  /** Fulfillment orders they made. */
  fulfillment_orders: number;
  /** Sales orders already taken in before (or earlier in the input), left as they were. */
  kept: number;
  refused: number;
  /** The first refusals, each with its line (NDJSON) or index (JSON array) and reason. */
  refusals: Refusal[];
  /** `--strict`: the line where the import stopped, nothing after it taken in. */
  stopped_at?: RecordPlace;
}

function numberOf(value: unknown): string | null {
  const number = (value as { sales_order_number?: unknown } | null)?.sales_order_number;
  return typeof number === 'string' ? number : null;
}

function refuse(
  summary: ImportSummary,
  where: RecordPlace,
  refusal: Omit<Refusal, 'line' | 'index'>,
) {
  summary.refused++;
  if (summary.refusals.length < LISTED_REFUSALS) summary.refusals.push({ ...where, ...refusal });
}

function count(summary: ImportSummary, where: RecordPlace, outcome: IntakeOutcome): void {
  switch (outcome.outcome) {
    case 'created':
      summary.taken_in++;
      summary.fulfillment_orders += outcome.fulfillment_orders.length;
      return;
    case 'exists':
      summary.kept++;
      return;
    case 'refused':
      refuse(summary, where, {
        sales_order_number: outcome.sales_order_number,
        error: describeError(outcome.error),
      });
  }
}

/** Why a record cannot be taken in before it reaches the engine, under `--strict`; else null. */
function invalidity(record: JsonRecord): string | null {
  if ('error' in record) return record.error;
  try {
    parseWith(SalesOrderInput, record.value);
    return null;
  } catch (error) {
    return describeError(error);
  }
}

function humanSummary(summary: ImportSummary): string {
  const lines = [
    `taken in: ${summary.taken_in} sales orders (${summary.fulfillment_orders} fulfillment orders)`,
    `kept: ${summary.kept} (taken in before, left as they were)`,
    `refused: ${summary.refused}`,
    ...summary.refusals.map(
      (refusal) =>
        `  ${describePlace(refusal.line !== undefined ? { line: refusal.line } : { index: refusal.index ?? 0 })}` +
        `${refusal.sales_order_number ? ` (${refusal.sales_order_number})` : ''}: ${refusal.error}`,
    ),
  ];
  if (summary.refused > summary.refusals.length) {
    lines.push(`  … and ${summary.refused - summary.refusals.length} more`);
  }
  if (summary.stopped_at) {
    lines.push(
      `stopped at ${describePlace(summary.stopped_at)} (--strict): nothing after it was read`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export const ordersImportCommand: Command = {
  name: 'orders import',
  summary:
    'Take in sales orders from NDJSON (one sales order a line) or JSON, from a file or - (stdin).',
  positionals: ['<file>'],
  options: {
    strict: {
      type: 'boolean',
      description:
        'stop at the first line that is not a valid sales order; take in nothing after it',
    },
    json: { type: 'boolean', description: 'print the summary as JSON' },
  },
  details:
    'NDJSON is streamed: memory does not grow with the file. A JSON array (or one sales order as a\n' +
    `JSON document) is read whole. Orders are taken in by batches of ${INTAKE_BATCH_SIZE}, one\n` +
    'transaction each. A line that is not JSON or not a valid sales order, or an order that cannot\n' +
    'be routed, is refused with its line number and reason, and holds back no other. Sales orders\n' +
    'already taken in are kept as they are, so importing a file again is harmless. Prints a\n' +
    'summary (taken in, kept, refused); exit code 1 when any order was refused. On a terminal,\n' +
    'stderr shows the progress.',
  async run(context) {
    const [file] = context.args.positionals as [string];
    const strict = context.args.values.strict === true;
    const input = await openInput(context, file);
    const summary: ImportSummary = {
      taken_in: 0,
      fulfillment_orders: 0,
      kept: 0,
      refused: 0,
      refusals: [],
    };
    await withEngine(context, async (engine) => {
      const progress = streamProgress(context.io.stderr, 'orders', input.size);
      let places: RecordPlace[] = [];
      let values: unknown[] = [];
      let done = 0;
      // The batch the database is taking in while the next one is read and parsed. One at a
      // time, in the order of the input (the first of two equal sales orders is the one taken
      // in), so at most two batches are in memory.
      let inFlight: Promise<void> | undefined;
      const submit = async () => {
        await inFlight;
        if (values.length === 0) return;
        const batch = values;
        const where = places;
        places = [];
        values = [];
        inFlight = engine
          .intakeBatch(context.store, batch.map(unverified), 'cli')
          .then((outcomes) => {
            for (const [position, outcome] of outcomes.entries()) {
              count(summary, where[position] as RecordPlace, outcome);
            }
            done += batch.length;
            progress.update(done, input.bytesRead());
          });
        // Failures surface at the next `await inFlight`; until then the rejection is handled.
        inFlight.catch(() => {});
      };
      try {
        for await (const record of jsonRecords(input.chunks)) {
          const reason = strict ? invalidity(record) : 'error' in record ? record.error : null;
          if (reason !== null) {
            refuse(summary, record.where, {
              sales_order_number: 'value' in record ? numberOf(record.value) : null,
              error: reason,
            });
            if (strict) {
              summary.stopped_at = record.where;
              break;
            }
            continue;
          }
          places.push(record.where);
          values.push((record as { value: unknown }).value);
          if (values.length >= INTAKE_BATCH_SIZE) await submit();
        }
        await submit();
        await inFlight;
      } finally {
        // Reading failed: the batch already submitted still ends before the database closes.
        await inFlight?.catch(() => {});
        progress.finish();
      }
    });
    // Lines that are not JSON are refused as read, the others when their batch is through.
    summary.refusals.sort((a, b) => (a.line ?? a.index ?? 0) - (b.line ?? b.index ?? 0));
    context.io.stdout.write(
      context.args.values.json === true
        ? `${JSON.stringify(summary, null, 2)}\n`
        : humanSummary(summary),
    );
    return summary.refused > 0 ? 1 : 0;
  },
};
