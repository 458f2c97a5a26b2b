import type { FailureStage } from '@fulfil/core';
import { integerOption, listOption, stringOption, UsageError } from '../args.js';
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

export const ordersCorrectTracksCommand: Command = {
  name: 'orders correct-tracks',
  summary: 'Replace the tracks of one recorded shipment of an order (a track sent wrong).',
  positionals: ['<number>'],
  options: {
    shipment: {
      type: 'string',
      value: 'id',
      description: 'the shipment, by its id as "orders show" lists it',
    },
    tracks: {
      type: 'string',
      value: 'numbers',
      description: 'the track numbers it should have, comma-separated (all of them)',
    },
    carrier: {
      type: 'string',
      value: 'code',
      description: "carrier code of the tracks (default: the shipment's first track's)",
    },
    title: {
      type: 'string',
      value: 'title',
      description: "carrier title of the tracks (default: the shipment's first track's)",
    },
    reason: { type: 'string', value: 'text', description: 'why (kept in the audit trail)' },
    actor: {
      type: 'string',
      value: 'name',
      description: 'who corrects it, for the audit trail',
      default: 'operator',
    },
  },
  details:
    "Prints the shipment as it is afterwards, as JSON. The change, with the tracks before and after, is recorded in the order's audit trail; repeating it changes nothing.",
  async run(context) {
    const [number] = context.args.positionals as [string];
    const shipment = integerOption(context.args, 'shipment', { min: 1 });
    if (shipment === undefined) throw new UsageError('--shipment is required');
    const numbers = listOption(context.args, 'tracks');
    if (!numbers) throw new UsageError('--tracks is required');
    const reason = stringOption(context.args, 'reason');
    if (!reason) throw new UsageError('--reason is required');
    const corrected = await withEngine(context, async (engine) => {
      const { shipments } = await engine.getOrderHistory(context.store, number);
      const recorded = shipments.find((candidate) => candidate.id === shipment)?.tracks[0];
      const carrier_code = stringOption(context.args, 'carrier') ?? recorded?.carrier_code ?? '';
      const title = stringOption(context.args, 'title') ?? recorded?.title ?? '';
      // The engine refuses a shipment the order does not have, and validates every field.
      return engine.correctTracks(
        context.store,
        number,
        {
          shipment,
          tracks: numbers.map((track_number) => ({ carrier_code, title, track_number })),
          reason,
        },
        stringOption(context.args, 'actor') ?? 'operator',
      );
    });
    printJson(context, corrected);
    return 0;
  },
};
