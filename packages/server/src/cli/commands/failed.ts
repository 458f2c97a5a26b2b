import { integerOption } from '../args.js';
import { type Command, printJson, withEngine } from '../command.js';
import { interventionCommand } from './intervention.js';

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

export const failedRequeueCommand = interventionCommand({
  name: 'failed requeue',
  summary: 'Put a failed order back into the active queue its items are in.',
  act: (engine, context, number) => engine.requeueOrder(context.store, number),
});

export const failedAbandonCommand = interventionCommand({
  name: 'failed abandon',
  summary: 'Give up on a failed order: it stays failed for good and its reservations are released.',
  act: (engine, context, number) => engine.abandonOrder(context.store, number),
});
