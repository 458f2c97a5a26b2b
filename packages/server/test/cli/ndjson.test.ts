import { describe, expect, it } from 'vitest';
import { type JsonRecord, jsonRecords } from '../../src/cli/ndjson.js';

/** The records of `chunks`, read as a file stream hands them over: in pieces of any size. */
async function recordsOf(chunks: (string | Buffer)[]): Promise<JsonRecord[]> {
  async function* stream() {
    yield* chunks;
  }
  const records: JsonRecord[] = [];
  for await (const record of jsonRecords(stream())) records.push(record);
  return records;
}

/** `text` cut every `size` bytes, as Buffers (so a character may be cut in two). */
function cut(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return pieces;
}

describe('reading a JSON stream in chunks', () => {
  const orders = [{ n: 'é1' }, { n: '€2' }, { n: '😀3' }];

  it('reads NDJSON whatever the chunks cut: lines, CRLF ends and characters in two', async () => {
    const text = orders.map((order) => `${JSON.stringify(order)}\r\n`).join('');
    const expected = orders.map((value, index) => ({ where: { line: index + 1 }, value }));
    for (const size of [1, 2, 3, 5, 7, text.length]) {
      expect(await recordsOf(cut(text, size))).toEqual(expected);
    }
  });

  it('reads a JSON array written on one line across many chunks', async () => {
    const many = Array.from({ length: 500 }, (_, index) => ({ index, n: '€'.repeat(20) }));
    const records = await recordsOf(cut(JSON.stringify(many), 97));
    expect(records).toEqual(many.map((value, index) => ({ where: { index }, value })));
  });

  it('flags a last line cut short, and only that one', async () => {
    const text = `${JSON.stringify(orders[0])}\n${JSON.stringify(orders[1])}\n{"n":`;
    const records = await recordsOf(cut(text, 4));
    expect(records.slice(0, 2)).toEqual([
      { where: { line: 1 }, value: orders[0] },
      { where: { line: 2 }, value: orders[1] },
    ]);
    expect(records[2]).toMatchObject({
      where: { line: 3 },
      error: expect.stringMatching(/truncated/),
    });
  });

  it('keeps empty lines out of the records but counts them as lines', async () => {
    const text = `\n${JSON.stringify(orders[0])}\n\n${JSON.stringify(orders[1])}\n`;
    expect(await recordsOf([text])).toEqual([
      { where: { line: 2 }, value: orders[0] },
      { where: { line: 4 }, value: orders[1] },
    ]);
  });
});
