import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** One record of a JSON stream, and where it was: a line of NDJSON, or an index of a JSON array. */
export type JsonRecord =
  | { where: RecordPlace; value: unknown }
  | { where: RecordPlace; error: string };

/** `{ line: 12 }` for NDJSON (1-based), `{ index: 3 }` for an element of a JSON array. */
export type RecordPlace = { line: number } | { index: number };

export function describePlace(place: RecordPlace): string {
  return 'line' in place ? `line ${place.line}` : `[${place.index}]`;
}

/**
 * Lines of a stream without their end (`\n` or `\r\n`); a last line without one is flagged.
 * Each chunk is searched once, and the pieces of a line are joined once its end comes: a line
 * longer than a chunk (a whole JSON array on one line) costs its length, not its length times
 * its chunks.
 */
async function* linesOf(
  input: AsyncIterable<string | Buffer>,
): AsyncGenerator<{ text: string; terminated: boolean }> {
  let pieces: string[] = [];
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const take = (last: string) => {
    pieces.push(last);
    const line = pieces.join('');
    pieces = [];
    return line;
  };
  for await (const chunk of input) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const line = take(text.slice(start, end));
      yield { text: line.endsWith('\r') ? line.slice(0, -1) : line, terminated: true };
      start = end + 1;
    }
    if (start < text.length) pieces.push(text.slice(start));
  }
  const rest = take(decoder.decode());
  if (rest.length > 0) yield { text: rest, terminated: false };
}

function parseLine(text: string, line: number, terminated: boolean): JsonRecord {
  try {
    return { where: { line }, value: JSON.parse(text) };
  } catch (error) {
    const reason = (error as Error).message;
    const hint = terminated ? '' : ' (the last line has no line end: is the file truncated?)';
    return { where: { line }, error: `not JSON: ${reason}${hint}` };
  }
}

/**
 * The records of a JSON stream, read as they come, so memory does not grow with the input:
 * NDJSON (one JSON value a line; blank lines are skipped) is streamed. A JSON document spread over
 * lines (an array, or one pretty-printed object, as `orders import` always took) is recognised by
 * its first line not being a whole JSON value, and is read whole.
 */
export async function* jsonRecords(
  input: AsyncIterable<string | Buffer>,
): AsyncGenerator<JsonRecord> {
  const lines = linesOf(input);
  let number = 0;
  let next = await lines.next();
  while (!next.done && next.value.text.trim() === '') {
    number++;
    next = await lines.next();
  }
  if (next.done) return;
  number++;
  const { text, terminated } = next.value;
  const first = parseLine(text, number, terminated);
  if (('value' in first && !Array.isArray(first.value)) || !/^\s*[[{]/.test(text)) {
    yield first;
    for await (const line of lines) {
      number++;
      if (line.text.trim() !== '') yield parseLine(line.text, number, line.terminated);
    }
    return;
  }
  // A document over several lines (or a one-line array): the whole of it is one JSON value.
  const parts = [text];
  for await (const line of lines) parts.push(line.text);
  let document: unknown;
  try {
    document = JSON.parse(parts.join('\n'));
  } catch (error) {
    yield { where: { line: number }, error: `not JSON: ${(error as Error).message}` };
    return;
  }
  if (!Array.isArray(document)) {
    yield { where: { line: number }, value: document };
    return;
  }
  for (const [index, value] of document.entries()) yield { where: { index }, value };
}

/** Writes `text` (or its UTF-8 bytes) to `output`, waiting when it asks to (bounded memory). */
export async function writeText(output: Writable, text: string | Uint8Array): Promise<void> {
  if (!output.write(text)) await once(output, 'drain');
}
