import pg from 'pg';
import { vi } from 'vitest';

/** The text of every statement any pg client sends while `work` runs, in order. */
export async function statementsSentBy(work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const query = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    const [config] = args as [string | { text?: string }];
    sent.push(String(typeof config === 'string' ? config : config?.text));
    return (query as (...a: unknown[]) => unknown).apply(this, args) as never;
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return sent;
}
