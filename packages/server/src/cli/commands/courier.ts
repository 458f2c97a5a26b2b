import { integerOption } from '../args.js';
import { type Command, printJson, withEngine } from '../command.js';

export const courierDispatchCommand: Command = {
  name: 'courier dispatch',
  summary: 'Run one round of courier dispatch now (serve does it every --courier-interval).',
  positionals: [],
  options: {
    limit: { type: 'string', value: 'n', description: 'orders at most', default: '50' },
  },
  details:
    'Books the due orders of courier warehouses with the store courier; prints which shipped,\n' +
    'which will be retried and which went to the failed queue, as JSON. Safe beside running servers.',
  async run(context) {
    const limit = integerOption(context.args, 'limit', { min: 1 }) ?? 50;
    printJson(context, await withEngine(context, (engine) => engine.dispatchCourier(limit)));
    return 0;
  },
};
