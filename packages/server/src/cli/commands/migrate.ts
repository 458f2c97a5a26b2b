import { redactDatabaseUrl } from '../../database-url.js';
import { type Command, openEngine } from '../command.js';

/**
 * What opening the database did to its schema, in one line: the migrations it applied, or that
 * none was due. `migrate` prints it always, `serve` when it applied some.
 */
export function migrationsLine(applied: readonly string[], databaseUrl: string): string {
  const database = redactDatabaseUrl(databaseUrl);
  return applied.length === 0
    ? `database is up to date: ${database}\n`
    : `applied ${applied.join(', ')}: ${database}\n`;
}

export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'Create or upgrade the database schema, then exit.',
  positionals: [],
  options: {},
  details:
    'Every command migrates the database it opens; run this one to do it ahead of time, e.g.\n' +
    'in a deploy step before starting several servers on one Postgres database.\n' +
    'Prints the migrations it applied, or that the database was up to date.',
  async run(context) {
    let applied: readonly string[] = [];
    const engine = await openEngine(context, {
      onMigrated: (names) => {
        applied = names;
      },
    });
    await engine.close();
    context.io.stdout.write(migrationsLine(applied, context.databaseUrl));
    return 0;
  },
};
