import { presentOrder } from '@fulfil/core';
import { integerOption } from '../args.js';
import { type Command, printJson, withEngine } from '../command.js';

export const failedListCommand: Command = {
  name: 'failed list',
  summary: 'List the failed queue, 100 orders a page, as JSON.',
  positionals: [],
  options: { page: { type: 'string', value: 'n', description: 'page number', default: '1' } },
  details: 'An empty array means there is nothing (more) to see.',
  async run(context) {
    const page = integerOption(context.args, 'page', { min: 1 }) ?? 1;
    printJson(
      context,
      await withEngine(context, (engine) =>
        engine.poll(engine.operator(context.store), 'failed', { page }),
      ),
    );
    return 0;
  },
};

export const failedRequeueCommand: Command = {
  name: 'failed requeue',
  summary: 'Put a failed order back into the active queue its items are in.',
  positionals: ['<number>'],
  options: {},
  details: 'Prints the order, as JSON.',
  async run(context) {
    const [number] = context.args.positionals as [string];
    const order = await withEngine(context, (engine) => engine.requeueOrder(context.store, number));
    printJson(context, presentOrder(order, 'whole'));
    return 0;
  },
};

export const failedAbandonCommand: Command = {
  name: 'failed abandon',
  summary: 'Give up on a failed order: it stays failed for good and its reservations are released.',
  positionals: ['<number>'],
  options: {},
  details: 'Prints the order, as JSON.',
  async run(context) {
    const [number] = context.args.positionals as [string];
    const order = await withEngine(context, (engine) => engine.abandonOrder(context.store, number));
    printJson(context, presentOrder(order, 'whole'));
    return 0;
  },
};
