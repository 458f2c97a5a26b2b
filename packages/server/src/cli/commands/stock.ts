import { stringOption } from '../args.js';
import { type Command, printJson, withEngine } from '../command.js';

export const stockListCommand: Command = {
  name: 'stock list',
  summary:
    'List stock per warehouse and sku: on hand, reserved, safety stock and available, as JSON.',
  positionals: [],
  options: { sku: { type: 'string', value: 'sku', description: 'only this sku' } },
  async run(context) {
    const sku = stringOption(context.args, 'sku');
    printJson(
      context,
      await withEngine(context, (engine) =>
        engine.listStock(context.store, sku === undefined ? {} : { sku }),
      ),
    );
    return 0;
  },
};
