/**
 * Killed in the middle of a group (see group-commit.test.ts). Opens the file, commits two groups
 * of writes, then starts a third whose last action holds the group open: it prints `holding`
 * and waits to be killed. Prints `acknowledged <store code>` for each write once it is answered.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { fixtures } from '@fulfil/core/testing';
import { openSqliteRepository } from '@fulfil/storage-sqlite';

const [filename] = process.argv.slice(2);
if (!filename) throw new Error('usage: group-commit-worker <file>');

const repository = await openSqliteRepository({ filename });
const write = (code: string, hold = false) =>
  repository
    .transaction(async (tx) => {
      await tx.upsertStore(code, fixtures.storeSettings());
      if (!hold) return;
      process.stdout.write('holding\n');
      await sleep(60_000);
    })
    .then(() => process.stdout.write(`acknowledged ${code}\n`));

await Promise.all([write('a1'), write('a2'), write('a3')]);
await Promise.all([write('b1'), write('b2')]);
await Promise.all([write('c1'), write('c2'), write('c3', true)]);
