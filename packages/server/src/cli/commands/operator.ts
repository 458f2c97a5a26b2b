import { isOperatorRole } from '@fulfil/core';
import { stringOption, UsageError } from '../args.js';
import { type Command, printJson, withEngine } from '../command.js';

/** Operators: the people who use the admin API and the console (docs/admin-api.md). */

export const operatorCreateCommand: Command = {
  name: 'operator create',
  summary: 'Create an operator of the admin API; its secret is printed this once.',
  positionals: [],
  options: {
    name: { type: 'string', value: 'name', description: 'unique name of the operator (required)' },
    role: {
      type: 'string',
      value: 'role',
      description: 'viewer, operator or admin (required)',
    },
  },
  details:
    'The operator sees every store, unless --store names the one it may see (the global\n' +
    '--store option defaults to "default": give it explicitly to scope the operator).\n' +
    'Prints the operator as JSON with its "secret", to log in to the console with. Example:\n' +
    '  fulfil operator create --name alice --role admin',
  async run(context) {
    const { args } = context;
    const name = stringOption(args, 'name');
    const role = stringOption(args, 'role');
    if (!name?.trim()) throw new UsageError('--name is required');
    if (role === undefined || !isOperatorRole(role)) {
      throw new UsageError('--role must be viewer, operator or admin');
    }
    const scoped = args.values.store !== undefined;
    const created = await withEngine(context, (engine) =>
      engine.admin.createOperator({ name, role, store_code: scoped ? context.store : null }),
    );
    printJson(context, { ...created.operator, secret: created.secret });
    context.io.stderr.write('Store the secret now: it is not shown again.\n');
    return 0;
  },
};

export const operatorListCommand: Command = {
  name: 'operator list',
  summary: 'List the operators (never their secrets), as JSON.',
  positionals: [],
  options: {},
  async run(context) {
    printJson(context, await withEngine(context, (engine) => engine.admin.listOperators()));
    return 0;
  },
};

export const operatorRevokeCommand: Command = {
  name: 'operator revoke',
  summary: 'Revoke an operator by name; its sessions end at once. Revoking twice is harmless.',
  positionals: ['<name>'],
  options: {},
  async run(context) {
    const [name] = context.args.positionals as [string];
    printJson(context, await withEngine(context, (engine) => engine.admin.revokeOperator(name)));
    return 0;
  },
};
