import {
  API_ACTIONS,
  isApiAction,
  isRolePreset,
  parseTimestamp,
  ROLE_PRESET_NAMES,
  resourceOf,
} from '@fulfil/core';
import { listOption, stringOption, UsageError } from '../args.js';
import { type Command, printJson, withEngine } from '../command.js';

const ROLES = ROLE_PRESET_NAMES.join(', ');

/**
 * `--acl`: a role preset, or a comma-separated list whose entries are ACL resources
 * (`Fulfil_FulfillmentOrder::api_accept`) or bare action names (`accept`), which are expanded.
 */
export function parseAcl(text: string): string | string[] {
  const acl = text.trim();
  if (isRolePreset(acl)) return acl;
  const entries = acl
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new UsageError('--acl must not be empty');
  return entries.map((entry) => {
    if (entry.includes('::')) return entry;
    if (isApiAction(entry)) return resourceOf(entry);
    throw new UsageError(
      `--acl: "${entry}" is neither a role (${ROLES}), a resource nor an action (${API_ACTIONS.join(', ')})`,
    );
  });
}

export const tokenCreateCommand: Command = {
  name: 'token create',
  summary: 'Issue an access token; its secret is printed this once and never stored.',
  positionals: [],
  options: {
    name: { type: 'string', value: 'name', description: 'unique name of the token (required)' },
    acl: {
      type: 'string',
      value: 'acl',
      description: `${ROLES}, or resources/actions separated by commas (required)`,
    },
    warehouses: {
      type: 'string',
      value: 'A,B',
      description: 'limit the token to these warehouses (default: the whole store)',
    },
    expires: {
      type: 'string',
      value: '"YYYY-MM-DD HH:MM:SS"',
      description: 'expiry, UTC (default: never)',
    },
  },
  details:
    'Prints the token as JSON; its "token" field is the secret to send as\n' +
    '"Authorization: Bearer <token>". Example:\n' +
    '  fulfil token create --name milan-3pl --acl partner --warehouses WH-MILAN',
  async run(context) {
    const { args } = context;
    const name = stringOption(args, 'name');
    const aclText = stringOption(args, 'acl');
    if (!name?.trim()) throw new UsageError('--name is required');
    if (aclText === undefined) throw new UsageError('--acl is required');
    const expires = stringOption(args, 'expires');
    if (expires !== undefined && parseTimestamp(expires) === null) {
      throw new UsageError(`--expires must be a UTC time "YYYY-MM-DD HH:MM:SS", not "${expires}"`);
    }
    const spec = {
      name,
      acl: parseAcl(aclText),
      warehouses: listOption(args, 'warehouses') ?? null,
      expires_at: expires ?? null,
    };
    const created = await withEngine(context, (engine) => engine.createToken(context.store, spec));
    printJson(context, { ...created.info, token: created.token });
    context.io.stderr.write('Store the token now: its secret is not shown again.\n');
    return 0;
  },
};

export const tokenListCommand: Command = {
  name: 'token list',
  summary: "List the store's tokens (never their secrets), as JSON.",
  positionals: [],
  options: {},
  async run(context) {
    printJson(context, await withEngine(context, (engine) => engine.listTokens(context.store)));
    return 0;
  },
};

export const tokenRevokeCommand: Command = {
  name: 'token revoke',
  summary: 'Revoke a token by name; it stops working at once. Revoking twice is harmless.',
  positionals: ['<name>'],
  options: {},
  async run(context) {
    const [name] = context.args.positionals as [string];
    await withEngine(context, (engine) => engine.revokeToken(context.store, name));
    printJson(context, { revoked: name, store_code: context.store });
    return 0;
  },
};
