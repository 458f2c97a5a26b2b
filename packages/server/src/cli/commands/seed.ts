import { unverified } from '@fulfil/core';
import { type Command, printJson, readJsonFile, withEngine } from '../command.js';

/** What loading a seed file into a database that has data does; `seed` and `serve` both say it. */
export const RESEED_HELP =
  'Over an existing database a seed file only adds what is missing: stores, warehouses, stock\n' +
  'rows, tokens and sales orders it lists that the database lacks. Nothing that exists is\n' +
  'changed: store settings, warehouses, stock quantities (what partners reported, what was\n' +
  'reserved or shipped since) and orders stay exactly as they are.';

export const seedCommand: Command = {
  name: 'seed',
  summary: 'Load a seed file: stores, settings, warehouses, stock, tokens and orders.',
  positionals: ['<file>'],
  options: {
    'reset-stock': {
      type: 'boolean',
      description:
        "set the on hand of every stock row the file lists to the file's qty (demos only)",
    },
  },
  details:
    'The file is validated first. Stores, warehouses, stock and tokens are loaded in one\n' +
    'transaction, all or nothing; orders then by batches, as "orders import" takes them in.\n' +
    `${RESEED_HELP}\n` +
    '--reset-stock is the one exception: it overwrites the on-hand qty of the stock rows the\n' +
    'file lists (reservations are kept), and still changes nothing else.\n' +
    'Prints what was created, kept and reset, as JSON.',
  async run(context) {
    const [file] = context.args.positionals as [string];
    const document = await readJsonFile(context, file);
    const resetStock = context.args.values['reset-stock'] === true;
    const report = await withEngine(context, (engine) =>
      engine.loadSeed(unverified(document), { resetStock }),
    );
    printJson(context, report);
    return 0;
  },
};
