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

export const courierLabelCommand: Command = {
  name: 'courier label',
  summary: 'Print the labels of a courier order again, from the database (buys nothing).',
  positionals: ['<number>'],
  options: {
    all: { type: 'boolean', description: 'every label: voided, being voided, failed voids too' },
  },
  details:
    'Prints the live labels of the order (tracking number, URL, the label document and its\n' +
    'format) as JSON, read from the database: the carrier is not called, so printing again never\n' +
    'buys a second label. With --all, every label the order had, with its status.',
  async run(context) {
    const [number] = context.args.positionals as [string];
    const all = context.args.values.all === true;
    printJson(
      context,
      await withEngine(context, (engine) =>
        all ? engine.listLabels(context.store, number) : engine.reprintLabel(context.store, number),
      ),
    );
    return 0;
  },
};
