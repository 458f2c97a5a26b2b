import { importStore, type NumberedRecord } from '@fulfil/storage-kysely';
import type { Command } from '../command.js';
import { openInput } from '../input-file.js';
import { jsonRecords } from '../ndjson.js';
import { withSqlRepository } from './store-repository.js';

export const importCommand: Command = {
  name: 'import',
  summary:
    'Load a store dump (from "fulfil export") into an empty store, from a file or - (stdin).',
  positionals: ['<file>'],
  options: {
    merge: {
      type: 'boolean',
      description: 'take into a store that holds data what it lacks, leaving what it has as it is',
    },
  },
  details:
    'The store (--store) must not exist yet or hold nothing (unless --merge), and the dump must be\n' +
    'of it. With --merge, rows the store has are kept as they are: an order it holds already is\n' +
    'left with its items, shipments and audit, and only what is missing is taken in. The dump is\n' +
    'taken in as one transaction: whole, or, on any bad line, not at all (the error names the\n' +
    'line). Ids and numbers are kept, so the moved store answers as before. Prints the rows taken\n' +
    'in per table (rows) and, with --merge, those left out because the store had them (kept), as JSON.',
  async run(context) {
    const [file] = context.args.positionals as [string];
    const input = await openInput(context, file);
    const records = (async function* (): AsyncGenerator<NumberedRecord> {
      for await (const record of jsonRecords(input.chunks)) {
        const line = 'line' in record.where ? record.where.line : record.where.index + 1;
        if ('error' in record)
          throw new Error(`line ${line}: ${record.error}; nothing was imported`);
        yield { line, value: record.value };
      }
    })();
    const counts = await withSqlRepository(context, (repository) =>
      importStore(repository, context.store, records, {
        merge: context.args.values.merge === true,
      }),
    );
    context.io.stdout.write(
      `${JSON.stringify({ store_code: context.store, ...counts }, null, 2)}\n`,
    );
    return 0;
  },
};
