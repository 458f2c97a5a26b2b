import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../src/cli/args.js';
import { createContext } from '../../src/cli/command.js';
import { cliLine, sameDatabaseArgs, shellQuote } from '../../src/cli/invocation.js';
import type { CliIo } from '../../src/cli/io.js';
import { Capture } from './run-cli.js';

/** The commands the CLI prints for its user: they run as printed, against the same database. */

function contextOf(argv: string[], env: Record<string, string> = {}, cwd = '/repo') {
  const io: CliIo = {
    stdin: (async function* () {})(),
    stdout: new Capture(),
    stderr: new Capture(),
    env,
    cwd,
    signals: new EventEmitter(),
    exit: () => {},
    parentPid: () => 1,
  };
  return createContext(io, parseCommandArgs(argv, {}, []));
}

describe('a printed command line', () => {
  it('quotes for a POSIX shell only the words that need it', () => {
    expect(shellQuote('sqlite:/tmp/a-b/fulfil.db')).toBe('sqlite:/tmp/a-b/fulfil.db');
    expect(shellQuote('Authorization: Bearer x')).toBe(`'Authorization: Bearer x'`);
    expect(shellQuote(`it's $(rm -rf ~)`)).toBe(`'it'\\''s $(rm -rf ~)'`);
    expect(shellQuote('')).toBe(`''`);
  });

  it('starts with the command the launcher named, else the installed executable through npx', () => {
    const args = ['operator', 'create', '--name', 'admin'];
    expect(cliLine(contextOf([]), args)).toBe('npx fulfil operator create --name admin');
    const launched = contextOf([], { FULFIL_CLI: 'npx -y pnpm@10.34.9 -s fulfil' });
    expect(cliLine(launched, args)).toBe(
      'npx -y pnpm@10.34.9 -s fulfil operator create --name admin',
    );
  });
});

describe('the --db of a printed command', () => {
  it('is left out where the command finds the same database by itself', () => {
    expect(sameDatabaseArgs(contextOf([]))).toEqual({ args: [] });
    expect(sameDatabaseArgs(contextOf(['--db', 'sqlite:./data/fulfil.db']))).toEqual({ args: [] });
    const fromEnv = { FULFIL_DATABASE_URL: 'postgres://fulfil:secret@db/fulfil' };
    expect(sameDatabaseArgs(contextOf([], fromEnv))).toEqual({ args: [] });
  });

  it('names a SQLite file by its absolute path where a relative one would resolve elsewhere', () => {
    expect(sameDatabaseArgs(contextOf(['--db', 'sqlite:x.db']))).toEqual({
      args: ['--db', 'sqlite:/repo/x.db'],
    });
    // Started from another directory than the root the printed command runs from.
    expect(sameDatabaseArgs(contextOf([], { INIT_CWD: '/home/me' }))).toEqual({
      args: ['--db', 'sqlite:/home/me/data/fulfil.db'],
    });
  });

  it('never prints a password, and says so; an in-memory database cannot be reached', () => {
    expect(sameDatabaseArgs(contextOf(['--db', 'postgres://db/fulfil?schema=s1']))).toEqual({
      args: ['--db', 'postgres://db/fulfil?schema=s1'],
    });
    expect(sameDatabaseArgs(contextOf(['--db', 'postgres://fulfil:secret@db/fulfil']))).toEqual({
      args: ['--db', 'postgres://fulfil:***@db/fulfil'],
      note: 'with the password of --db in place of ***',
    });
    expect(sameDatabaseArgs(contextOf(['--db', 'sqlite::memory:']))).toEqual({
      unreachable: 'the database is in memory, where no other command can reach it',
    });
  });
});
