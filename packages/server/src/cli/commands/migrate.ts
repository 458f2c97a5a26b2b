import { redactDatabaseUrl } from '../../database-url.js';
import { type Command, withEngine } from '../command.js';

export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'Create or upgrade the database schema, then exit.',
  positionals: [],
  options: {},
  details:
    'Every command migrates the database it opens; run this one to do it ahead of time, e.g.\n' +
    'in a deploy step before starting several servers on one Postgres database.',
  async run(context) {
    await withEngine(context, async () => {});
    context.io.stdout.write(`database is up to date: ${redactDatabaseUrl(context.databaseUrl)}\n`);
    return 0;
  },
};
