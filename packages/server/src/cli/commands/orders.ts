import type { FailureStage } from '@fulfil/core';
import { stringOption, UsageError } from '../args.js';
import { type Command, printJson, withEngine } from '../command.js';
import { interventionCommand } from './intervention.js';

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
