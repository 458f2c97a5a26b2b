import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_BODY_LIMIT } from '../../src/http/handler.js';
import { discardLimitOf } from '../../src/http/node-adapter.js';
import { startTestServer, type TestServer, TOKENS } from '../http/support.js';

/**
 * Issue 16 item 10: a client that writes a body over the limit in full, as Node's fetch does,
 * gets the 413, never EPIPE or ECONNRESET: the server reads and drops the rest of the body (up
 * to a bound) before it closes the connection.
 */

const MiB = 1024 * 1024;

async function postWithFetch(server: TestServer, size: number) {
  const response = await fetch(`${server.url}/rest/default/V1/stockItems`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKENS.all}`, 'content-type': 'application/json' },
    body: new Uint8Array(size).fill(0x20),
  });
  return {
    status: response.status,
    connection: response.headers.get('connection'),
    body: (await response.json()) as { code: number },
  };
}

/**
 * Streams `size` bytes in 16 KiB chunks; resolves with the status (or the write error) and how
 * many bytes were still unsent when it came.
 */
function stream(url: string, size: number, declare: boolean) {
  return new Promise<{ outcome: number | string; unsent: number }>((resolve) => {
    const req = httpRequest(`${url}/rest/default/V1/stockItems`, {
      method: 'POST',
      agent: false,
      headers: {
        authorization: `Bearer ${TOKENS.all}`,
        'content-type': 'application/json',
        ...(declare ? { 'content-length': size } : { 'transfer-encoding': 'chunked' }),
      },
    });
    req.on('response', (res) => {
      res.resume();
      resolve({ outcome: res.statusCode ?? 0, unsent: left });
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ outcome: error.code ?? error.message, unsent: left }),
    );
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    let left = size;
    const pump = () => {
      while (left > 0) {
        const piece = chunk.subarray(0, Math.min(left, chunk.length));
        left -= piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

describe('a body over the limit, sent in full', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  test('the bound leaves room for bodies many times the limit', () => {
    expect(discardLimitOf(DEFAULT_BODY_LIMIT)).toBeGreaterThanOrEqual(50 * MiB);
  });

  // The answer comes only once the whole body is sent: it was read, not left to reset.
  test.each([
    [5, true],
    [5, false],
    [50, true],
    [50, false],
  ])('%i MiB (declared length: %s) is read to its end, then refused', async (size, declare) => {
    expect(await stream(server.url, size * MiB, declare)).toEqual({ outcome: 413, unsent: 0 });
  });

  for (const size of [5 * MiB, 50 * MiB]) {
    test(`${size / MiB} MiB with fetch, five times: always the 413 with its body`, async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const reply = await postWithFetch(server, size);
        expect(reply.status).toBe(413);
        expect(reply.connection).toBe('close');
        expect(reply.body.code).toBe(413);
      }
    });
  }
});

describe('past the bound', () => {
  let server: TestServer;
  const limit = 1024;
  beforeAll(async () => {
    server = await startTestServer({ server: { bodyLimit: limit } });
  });
  afterAll(() => server.close());

  // Past the bound the server answers and closes without reading on: the answer (or the reset
  // of a client that keeps writing) comes long before the client is done.
  test.each([
    ['declared', true],
    ['chunked', false],
  ])('a %s body far past the bound is answered before it is all sent', async (_how, declare) => {
    const { outcome, unsent } = await stream(server.url, 64 * MiB, declare);
    expect([413, 'EPIPE', 'ECONNRESET']).toContain(outcome);
    expect(unsent).toBeGreaterThan(0);
  });
});
