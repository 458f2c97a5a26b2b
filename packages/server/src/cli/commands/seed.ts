import { unverified } from '@fulfil/core';
import { type Command, printJson, readJsonFile, withEngine } from '../command.js';

export const seedCommand: Command = {
  name: 'seed',
  summary: 'Load a seed file: stores, settings, warehouses, stock, tokens and orders.',
  positionals: ['<file>'],
  options: {},
  details:
    'The file is validated first and loaded in one transaction, all or nothing. Loading it again\n' +
    'is harmless: settings, warehouses and stock are set again, existing tokens and orders are\n' +
    'kept. Prints what was created and kept, as JSON.',
  async run(context) {
    const [file] = context.args.positionals as [string];
    const document = await readJsonFile(context, file);
    const report = await withEngine(context, (engine) => engine.loadSeed(unverified(document)));
    printJson(context, report);
    return 0;
  },
};
