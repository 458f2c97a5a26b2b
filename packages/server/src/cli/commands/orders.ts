import {
  type DomainError,
  type FailureStage,
  fieldErrors,
  INTAKE_BATCH_SIZE,
  type IntakeOutcome,
  isDomainError,
  parseWith,
  renderMessage,
  SalesOrderInput,
  unverified,
} from '@fulfil/core';
import { stringOption, UsageError } from '../args.js';
import { type Command, printJson, readJsonFile, withEngine } from '../command.js';
import { progressBar } from '../progress.js';
import { interventionCommand } from './intervention.js';

/** The same error, its field paths prefixed with the index of the order in the file: `[3].items[0].qty`. */
function atIndex(error: DomainError, index: number): DomainError {
  const prefix = (path: string | undefined) => (path ? `[${index}].${path}` : `[${index}]`);
  const details = error.errors.length
    ? error.errors
    : [{ message: error.message, parameters: error.parameters }];
  return fieldErrors(
    error.code,
    error.message,
    details.map((detail) => ({
      message: detail.message,
      parameters: (detail.parameters.length ? detail.parameters : [{}]).map((parameter) => ({
        ...parameter,
        fieldName: prefix(parameter.fieldName),
      })),
    })),
  );
}

/** Validates every sales order of the file before any is taken in. */
function salesOrdersOf(document: unknown): unknown[] {
  if (!Array.isArray(document)) {
    parseWith(SalesOrderInput, document);
    return [document];
  }
  for (const [index, order] of document.entries()) {
    try {
      parseWith(SalesOrderInput, order);
    } catch (error) {
      throw isDomainError(error) ? atIndex(error, index) : error;
    }
  }
  return document;
}

interface ImportResult {
  sales_order_number: string | null;
  status: 'created' | 'exists' | 'refused';
  fulfillment_orders: {
    fulfillment_order_number: string;
    warehouse_code: string;
    status: string;
  }[];
  /** Why a refused order was not taken in. */
  error?: string;
}

function importResult(outcome: IntakeOutcome): ImportResult {
  switch (outcome.outcome) {
    case 'created':
      return {
        sales_order_number: outcome.sales_order_number,
        status: 'created',
        fulfillment_orders: outcome.fulfillment_orders.map((fulfillment) => ({
          fulfillment_order_number: fulfillment.fulfillment_order_number,
          warehouse_code: fulfillment.warehouse_code,
          status: fulfillment.status,
        })),
      };
    case 'exists':
      return {
        sales_order_number: outcome.sales_order_number,
        status: 'exists',
        fulfillment_orders: [],
      };
    case 'refused':
      return {
        sales_order_number: outcome.sales_order_number,
        status: 'refused',
        fulfillment_orders: [],
        error: renderMessage(outcome.error.message, outcome.error.parameters),
      };
  }
}

export const ordersImportCommand: Command = {
  name: 'orders import',
  summary: 'Take in sales orders from a JSON file (one sales order, or an array of them).',
  positionals: ['<file>'],
  options: {},
  details:
    'Every order is validated before any is taken in. They are taken in by batches of\n' +
    `${INTAKE_BATCH_SIZE}, one transaction each; an order that cannot be routed is reported as\n` +
    '"refused" (exit code 1) without holding back the others. Sales orders already taken in are\n' +
    'reported as "exists" and left alone, so importing a file twice is harmless. Prints the\n' +
    'result as JSON; on a terminal, stderr shows the progress.',
  async run(context) {
    const [file] = context.args.positionals as [string];
    const document = await readJsonFile(context, file);
    const orders = salesOrdersOf(document);
    const results: ImportResult[] = [];
    await withEngine(context, async (engine) => {
      const progress = progressBar(context.io.stderr, orders.length, 'orders');
      try {
        for (let start = 0; start < orders.length; start += INTAKE_BATCH_SIZE) {
          const batch = orders.slice(start, start + INTAKE_BATCH_SIZE);
          const outcomes = await engine.intakeBatch(context.store, batch.map(unverified), 'cli');
          results.push(...outcomes.map(importResult));
          progress.update(results.length);
        }
      } finally {
        progress.finish();
      }
    });
    printJson(context, results);
    return results.some((result) => result.status === 'refused') ? 1 : 0;
  },
};

export const ordersShowCommand: Command = {
  name: 'orders show',
  summary:
    'Show a fulfillment order with its shipments, invoices and audit trail (who did what, when).',
  positionals: ['<number>'],
  options: {},
  details: 'The number is the fulfillment_order_number, e.g. 100001001-1. Prints JSON.',
  async run(context) {
    const [number] = context.args.positionals as [string];
    printJson(
      context,
      await withEngine(context, (engine) => engine.getOrderHistory(context.store, number)),
    );
    return 0;
  },
};

export const ordersFailCommand = interventionCommand({
  name: 'orders fail',
  summary: 'Take an order out of the flow into the failed queue (requeue or abandon it later).',
  options: {
    reason: { type: 'string', value: 'text', description: 'why it failed (kept on the order)' },
    stage: {
      type: 'string',
      value: 'stage',
      description: 'allocation, shipment or invoice (default: from its least advanced line)',
    },
  },
  act(engine, context, number) {
    const reason = stringOption(context.args, 'reason');
    if (!reason) throw new UsageError('--reason is required');
    // The engine validates the stage: a bad one is its error (exit 1), like any domain rule.
    const stage = stringOption(context.args, 'stage') as FailureStage | undefined;
    return engine.failOrder(context.store, number, reason, stage);
  },
});

export const ordersCancelCommand = interventionCommand({
  name: 'orders cancel',
  summary: 'Cancel every line of an order that has not shipped yet and free its stock.',
  act: (engine, context, number) => engine.cancelOrder(context.store, number),
});
