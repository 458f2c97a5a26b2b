import { tracingChannel } from 'node:diagnostics_channel';
import type { StatementMessage } from '@fulfil/storage-kysely';
import { sql } from 'kysely';
import { afterEach, describe, expect, test } from 'vitest';
import { type Place, places } from './places.js';

/**
 * The `fulfil:sql` TracingChannel, with no SDK registered: a subscriber hears every statement,
 * each in a message of its own (Node adds the result to it), with the statement's text and
 * summary and never a value it was given.
 */

let open: Place | undefined;
afterEach(async () => {
  await open?.drop();
  open = undefined;
});

describe.each(places)('the fulfil:sql channel on %s', (_name, makePlace) => {
  test('tells each statement in a message of its own, with its result', async () => {
    open = await makePlace();
    const { db } = open.repository;
    const started: StatementMessage[] = [];
    const settled: (StatementMessage & { result?: { rows: unknown[] } })[] = [];
    const channel = tracingChannel<unknown, StatementMessage>('fulfil:sql');
    const subscribers = {
      start: (message: StatementMessage) => started.push(message),
      end: () => {},
      asyncStart: () => {},
      asyncEnd: (message: StatementMessage) => settled.push(message),
      error: () => {},
    };
    channel.subscribe(subscribers);
    try {
      for (const secret of ['first-secret', 'second-secret']) {
        await sql`select ${secret} as said`.execute(db);
      }
    } finally {
      channel.unsubscribe(subscribers);
    }
    const ours = started.filter((message) => message.query.includes('as said'));
    expect(ours).toHaveLength(2);
    const [first, second] = ours as [StatementMessage, StatementMessage];
    // A subscriber may keep a message: the two runs of one text are two objects.
    expect(first).not.toBe(second);
    for (const message of ours) {
      expect(message).toMatchObject({
        system: open.system,
        namespace: open.namespace,
        operation: 'SELECT',
        summary: 'SELECT',
      });
      // The text has its placeholder, not the value (the result, which Node adds, has it).
      expect(message.query).not.toContain('secret');
    }
    const results = settled.filter((message) => ours.includes(message));
    expect(results).toHaveLength(2);
    for (const message of results) expect(message.result?.rows).toHaveLength(1);
  });
});
