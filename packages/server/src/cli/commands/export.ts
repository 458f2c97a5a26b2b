import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { Writable } from 'node:stream';
import { exportStore } from '@fulfil/storage-kysely';
import { stringOption } from '../args.js';
import { type Command, resolvePath } from '../command.js';
import type { CliOutput } from '../io.js';
import { writeText } from '../ndjson.js';
import { withSqlRepository } from './store-repository.js';

export const exportCommand: Command = {
  name: 'export',
  summary: 'Write a whole store as NDJSON, to move it to another database (see "fulfil import").',
  positionals: [],
  options: {
    out: {
      type: 'string',
      value: 'file',
      description: 'where to write the dump (default: stdout)',
    },
  },
  details:
    'The first line is a header (format version, store code); every other line is one row of the\n' +
    'store: settings, warehouses, stock with reservations, tokens (their hashes, never a secret),\n' +
    'sales order sequences, fulfillment orders with items, shipments, invoices, queue entries and\n' +
    'audit. Read in pages, so memory does not grow with the store, and from one snapshot: taken\n' +
    'while a server writes, it holds the store as it was when the export began, never half of an\n' +
    'action. What commits after that is not in it: stop the writers before the dump of a move.',
  async run(context) {
    const file = stringOption(context.args, 'out');
    const output: Writable = file
      ? // Room for a page and a half: the next page is read while the last one is written.
        createWriteStream(resolvePath(context, file), { highWaterMark: 8 * 1024 * 1024 })
      : new Writable({
          decodeStrings: false,
          write(chunk, _encoding, done) {
            const stdout = context.io.stdout as CliOutput & Partial<Pick<Writable, 'once'>>;
            // Wait for a slow reader (a pipe into `fulfil import -`): memory stays bounded.
            if (stdout.write(chunk) === false && stdout.once) stdout.once('drain', () => done());
            else done();
          },
        });
    await withSqlRepository(context, async (repository) => {
      for await (const text of exportStore(repository, context.store)) {
        await writeText(output, text);
      }
    });
    output.end();
    if (file) await once(output, 'close');
    return 0;
  },
};
