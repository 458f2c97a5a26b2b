import { type AdminEngine, appendAll, type OperatorPrincipal } from '@fulfil/core';
import { stringOption, UsageError } from '../args.js';
import { type Command, type CommandContext, printJson, withEngine } from '../command.js';

/**
 * Who the CLI acts as on the operator's side: whoever can run it can open the database, so an
 * admin of every store; its store audit entries name it `cli`.
 */
const CLI_OPERATOR: OperatorPrincipal = {
  name: 'cli',
  role: 'admin',
  store_code: null,
  request_id: null,
};

function withAdmin<T>(
  context: CommandContext,
  work: (admin: AdminEngine, operator: OperatorPrincipal) => Promise<T>,
): Promise<T> {
  return withEngine(context, (engine) => work(engine.admin, CLI_OPERATOR));
}

export const stockListCommand: Command = {
  name: 'stock list',
  summary:
    'List stock per warehouse and sku: on hand, reserved, safety stock, quarantined and available, as JSON.',
  positionals: [],
  options: { sku: { type: 'string', value: 'sku', description: 'only this sku' } },
  details:
    'Available = on hand - reserved - safety stock, and may be negative; a line holds its qty reserved from the moment it is routed until it ships, is rejected or canceled.',
  async run(context) {
    const sku = stringOption(context.args, 'sku');
    const rows = await withAdmin(context, async (admin, operator) => {
      const listed: Awaited<ReturnType<AdminEngine['listStock']>>['items'] = [];
      // The admin API's pages, a sku prefix there: only the sku named is kept here.
      let after: string | null = null;
      do {
        const page: Awaited<ReturnType<AdminEngine['listStock']>> = await admin.listStock(
          operator,
          context.store,
          {
            limit: '200',
            ...(sku === undefined ? {} : { sku }),
            ...(after === null ? {} : { after }),
          },
        );
        appendAll(
          listed,
          page.items.filter((row) => sku === undefined || row.sku === sku),
        );
        after = page.next;
      } while (after !== null);
      return listed;
    });
    printJson(context, rows);
    return 0;
  },
};

export const stockSafetyCommand: Command = {
  name: 'stock safety',
  summary:
    'Set the safety stock routing keeps back: of one sku at a warehouse (--sku), else the warehouse default.',
  positionals: ['<warehouse>', '<qty>'],
  options: {
    sku: { type: 'string', value: 'sku', description: "the sku's own safety stock there" },
  },
  details:
    "Prints the stock row (with --sku) or the warehouse as JSON. With --sku, <qty> none drops the sku's own figure: the warehouse default applies again.",
  async run(context) {
    const [warehouse, figure] = context.args.positionals;
    const sku = stringOption(context.args, 'sku');
    const qty = sku !== undefined && figure === 'none' ? null : integerFigure(figure);
    const result = await withAdmin(context, async (admin, operator) => {
      if (sku !== undefined) {
        return admin.setOnHand(operator, context.store, warehouse as string, sku, {
          safety_stock: qty,
        });
      }
      // A warehouse is written whole: the default changes, everything else stays as it is.
      const { warehouses } = await admin.listWarehouses(operator, context.store);
      const current = warehouses.find((candidate) => candidate.code === warehouse);
      if (!current) throw new UsageError(`warehouse ${warehouse} does not exist`);
      return admin.putWarehouse(operator, context.store, current.code, {
        ...current,
        safety_stock: qty,
      });
    });
    printJson(context, result);
    return 0;
  },
};

/** `<qty>`: a whole number of units, 0 or more. */
function integerFigure(figure: string | undefined): number {
  const qty = figure !== undefined && /^\d+$/.test(figure.trim()) ? Number(figure) : Number.NaN;
  if (!Number.isSafeInteger(qty)) {
    throw new UsageError(`<qty> must be an integer from 0 or more, not "${figure ?? ''}"`);
  }
  return qty;
}

export const stockCheckCommand: Command = {
  name: 'stock check',
  summary:
    'Check that each stock row reserves what its live unshipped lines hold, and quarantine what returns received; --fix repairs.',
  positionals: [],
  options: {
    fix: { type: 'boolean', description: 'set every mismatch to what the lines and returns say' },
    reason: {
      type: 'string',
      value: 'text',
      description: 'with --fix: why, kept in the store audit',
    },
  },
  details:
    'Prints the mismatches (or, with --fix, what was fixed) as JSON. Exit code 1 when a check finds mismatches, 0 when there are none or they were fixed.',
  async run(context) {
    const reason = stringOption(context.args, 'reason');
    if (context.args.values.fix === true) {
      const fixed = await withAdmin(context, (admin, operator) =>
        admin.fixReservations(operator, context.store, reason === undefined ? {} : { reason }),
      );
      printJson(context, fixed);
      return 0;
    }
    const found = await withAdmin(context, (admin, operator) =>
      admin.checkReservations(operator, context.store),
    );
    printJson(context, found);
    return found.mismatches.length || found.quarantine.length ? 1 : 0;
  },
};
