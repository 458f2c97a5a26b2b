import { sep } from 'node:path';
import { integerOption, stringOption, UsageError } from '../args.js';
import {
  type Command,
  type CommandContext,
  printJson,
  resolvePath,
  withEngine,
} from '../command.js';
import { labelSummary, writeLabelFiles } from '../label-files.js';

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
    out: {
      type: 'string',
      value: 'file|dir',
      description: "write the live labels' documents there, decoded (PDF, ZPL, PNG as issued)",
    },
    all: { type: 'boolean', description: 'every label: voided, being voided, failed voids too' },
    json: { type: 'boolean', description: 'print the labels as JSON, documents included' },
  },
  details:
    'Reads the labels from the database: the carrier is not called, so printing again never\n' +
    'buys a second label. Prints one line per live label (tracking number, document format and\n' +
    'size); with --all, every label the order had, with its status and last error.\n' +
    "--out <dir> writes each live label's document into the directory (created when the path\n" +
    'ends with /), named after its reference (100001001-1_shipment-1_1.pdf); --out <file>\n' +
    'writes the one document there. A label the carrier only holds at a URL is named with it.\n' +
    '--json prints the labels (live, or --all) as JSON, each with its document as stored.',
  async run(context) {
    const [number] = context.args.positionals as [string];
    const { all, json } = context.args.values;
    const out = stringOption(context.args, 'out');
    if (out !== undefined && (all === true || json === true)) {
      throw new UsageError('--out writes the live labels: leave out --all and --json');
    }
    const labels = await withEngine(context, (engine) =>
      all === true
        ? engine.listLabels(context.store, number)
        : engine.reprintLabel(context.store, number),
    );
    if (json === true) {
      printJson(context, labels);
      return 0;
    }
    if (out === undefined) {
      context.io.stdout.write(labelSummary(number, labels, all === true));
      return 0;
    }
    if (labels.length === 0) throw new Error(`order ${number} has no live label`);
    const lines = await writeLabelFiles(labels, resolveOutput(context, out));
    context.io.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  },
};

/** The path as the user meant it, a trailing separator kept: it asks for a directory. */
function resolveOutput(context: CommandContext, out: string): string {
  const resolved = resolvePath(context, out);
  return /[\\/]$/.test(out) && !resolved.endsWith(sep) ? `${resolved}${sep}` : resolved;
}
