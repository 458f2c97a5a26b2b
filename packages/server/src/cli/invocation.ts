import { DEFAULT_DATABASE_URL, parseDatabaseUrl, redactDatabaseUrl } from '../database-url.js';
import { stringOption } from './args.js';
import type { CommandContext } from './command.js';

/**
 * The commands the CLI prints for its user to run next (the banner of `serve`), written so that
 * they run as printed: with the command the user runs this CLI by, against the same database.
 */

/**
 * How the user runs this CLI: the launcher that started it says so in `FULFIL_CLI` (the
 * repository's scripts/fulfil.mjs: `npx -y pnpm@<version> -s fulfil`); the installed executable
 * is run through npx.
 */
export function cliCommand(env: CommandContext['io']['env']): string {
  return env.FULFIL_CLI?.trim() || 'npx fulfil';
}

/** `word` as one word of a POSIX shell: quoted when it holds anything the shell would read. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A command line of this CLI with `args`, each quoted as the shell needs. */
export function cliLine(context: CommandContext, args: readonly string[]): string {
  return [cliCommand(context.io.env), ...args.map(shellQuote)].join(' ');
}

/**
 * The `--db` that makes another command open the database this one opened, or what stands in
 * the way. None when that command finds it by itself: the URL came from `FULFIL_DATABASE_URL`
 * or is the default, and relative paths resolve as they did (the user is where they were).
 */
export function sameDatabaseArgs(
  context: CommandContext,
): { args: string[]; note?: string } | { unreachable: string } {
  const given = stringOption(context.args, 'db') !== undefined;
  const target = parseDatabaseUrl(context.databaseUrl, context.baseDir);
  if (target.kind === 'sqlite-memory') {
    return { unreachable: 'the database is in memory, where no other command can reach it' };
  }
  if (target.kind === 'sqlite') {
    const sameFromHere = !given || context.databaseUrl === DEFAULT_DATABASE_URL;
    return sameFromHere && context.baseDir === context.io.cwd
      ? { args: [] }
      : { args: ['--db', `sqlite:${target.path}`] };
  }
  if (!given) return { args: [] };
  const shown = redactDatabaseUrl(context.databaseUrl);
  // A password is never printed: logs keep what serve prints.
  return shown === context.databaseUrl
    ? { args: ['--db', shown] }
    : { args: ['--db', shown], note: 'with the password of --db in place of ***' };
}
