import { InvalidDatabaseUrlError } from '../database-url.js';
import {
  COMMON_OPTIONS,
  columns,
  formatCommandHelp,
  optionLine,
  parseCommandArgs,
  UsageError,
  wantsHelp,
} from './args.js';
import { type Command, createContext } from './command.js';
import { courierDispatchCommand, courierLabelCommand } from './commands/courier.js';
import { exportCommand } from './commands/export.js';
import {
  failedAbandonCommand,
  failedListCommand,
  failedRequeueCommand,
} from './commands/failed.js';
import { importCommand } from './commands/import.js';
import { migrateCommand } from './commands/migrate.js';
import { openapiCommand } from './commands/openapi.js';
import {
  operatorCreateCommand,
  operatorListCommand,
  operatorRevokeCommand,
} from './commands/operator.js';
import {
  ordersCancelCommand,
  ordersCorrectTracksCommand,
  ordersFailCommand,
  ordersShowCommand,
} from './commands/orders.js';
import { ordersImportCommand } from './commands/orders-import.js';
import { seedCommand } from './commands/seed.js';
import { serveCommand } from './commands/serve.js';
import { stockCheckCommand, stockListCommand, stockSafetyCommand } from './commands/stock.js';
import { tokenCreateCommand, tokenListCommand, tokenRevokeCommand } from './commands/token.js';
import { describeError } from './describe-error.js';
import { type CliIo, processIo } from './io.js';

export const COMMANDS: readonly Command[] = [
  serveCommand,
  migrateCommand,
  seedCommand,
  tokenCreateCommand,
  tokenListCommand,
  tokenRevokeCommand,
  operatorCreateCommand,
  operatorListCommand,
  operatorRevokeCommand,
  ordersImportCommand,
  ordersShowCommand,
  ordersFailCommand,
  ordersCancelCommand,
  ordersCorrectTracksCommand,
  stockListCommand,
  stockSafetyCommand,
  stockCheckCommand,
  failedListCommand,
  failedRequeueCommand,
  failedAbandonCommand,
  courierDispatchCommand,
  courierLabelCommand,
  exportCommand,
  importCommand,
  openapiCommand,
];

/** Commands that take a subcommand: `token`, `orders`, `stock`, `failed`, `courier`. */
function groupOf(word: string): Command[] {
  return COMMANDS.filter((command) => command.name.startsWith(`${word} `));
}

function topLevelHelp(): string {
  return [
    'Usage: fulfil <command> [options]',
    'Fulfil, the fulfillment order engine: its REST server and operator commands.',
    `Commands:\n${columns(COMMANDS.map((command) => [command.name, command.summary]))}`,
    `Every command takes:\n${columns(
      Object.entries(COMMON_OPTIONS).map(([name, spec]) => optionLine(name, spec)),
    )}`,
    'Relative paths resolve against the directory you ran the command from (INIT_CWD under pnpm).\n' +
      'Data commands print JSON on stdout (under pnpm, `pnpm -s fulfil …` keeps its banner out).\n' +
      'Exit codes: 0 ok, 1 runtime error, 2 usage error.\n' +
      'Run "fulfil <command> --help" for the options of a command.',
  ].join('\n\n');
}

function groupHelp(word: string, commands: readonly Command[]): string {
  return [
    `Usage: fulfil ${word} <${commands.map((command) => command.name.split(' ')[1]).join('|')}> [options]`,
    `Commands:\n${columns(commands.map((command) => [command.name, command.summary]))}`,
    `Run "fulfil ${word} <command> --help" for its options.`,
  ].join('\n\n');
}

/** Finds the command the arguments name; the rest of argv is its own. */
function selectCommand(
  argv: readonly string[],
): { command: Command; rest: string[] } | { help: string } {
  const [first, second] = argv;
  if (first === undefined) throw new UsageError('missing command');
  if (first === 'help' || first === '--help' || first === '-h') return { help: topLevelHelp() };
  const single = COMMANDS.find((command) => command.name === first);
  if (single) return { command: single, rest: argv.slice(1) };
  const group = groupOf(first);
  if (group.length === 0) {
    throw new UsageError(
      first.startsWith('-') ? `unknown option "${first}"` : `unknown command "${first}"`,
    );
  }
  const command = group.find((candidate) => candidate.name === `${first} ${second}`);
  if (command) return { command, rest: argv.slice(2) };
  if (second === undefined || second === '--help' || second === '-h' || second === 'help') {
    if (second === undefined) throw new UsageError(`"${first}" needs a subcommand`, first);
    return { help: groupHelp(first, group) };
  }
  throw new UsageError(`unknown command "${first} ${second}"`, first);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/**
 * The `fulfil` command line: runs the command `argv` names and resolves to its exit code —
 * 0 ok, 1 runtime error, 2 usage error — with a one-line message on stderr for either error.
 * `io` replaces parts of the process (streams, env, cwd, signals) so tests run it in-process.
 */
export async function main(argv: readonly string[], io: Partial<CliIo> = {}): Promise<number> {
  const cli: CliIo = { ...processIo(), ...io };
  let name = '';
  try {
    const selected = selectCommand(argv);
    if ('help' in selected) {
      cli.stdout.write(`${selected.help}\n`);
      return 0;
    }
    const { command, rest } = selected;
    name = command.name;
    if (wantsHelp(rest)) {
      cli.stdout.write(formatCommandHelp(command));
      return 0;
    }
    const args = parseCommandArgs(rest, command.options, command.positionals);
    return (await command.run(createContext(cli, args))) ?? 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof InvalidDatabaseUrlError) {
      const scope = error instanceof UsageError && error.command ? error.command : name;
      const hint = scope ? `fulfil ${scope} --help` : 'fulfil --help';
      cli.stderr.write(
        `fulfil${name ? ` ${name}` : ''}: ${oneLine(error.message)} (see "${hint}")\n`,
      );
      return 2;
    }
    cli.stderr.write(`fulfil${name ? ` ${name}` : ''}: ${oneLine(describeError(error))}\n`);
    return 1;
  }
}
