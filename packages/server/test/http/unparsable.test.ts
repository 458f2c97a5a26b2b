import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from './support.js';

/** Sends raw bytes and reads until the server closes the connection. */
function rawExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

function parse(raw: string): { status: number; headers: string; body: unknown } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  return {
    status: Number(head.split(' ')[1]),
    headers: head.toLowerCase(),
    body: JSON.parse(body),
  };
}

describe('requests node cannot parse get the error body too (docs/behaviour.md)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('headers over the limit: 431 with the error body', async () => {
    const huge = `x-pad: ${'a'.repeat(20_000)}\r\n`;
    const reply = parse(
      await rawExchange(
        server.url,
        `GET /rest/default/V1/warehouses HTTP/1.1\r\nhost: x\r\n${huge}\r\n`,
      ),
    );
    expect(reply.status).toBe(431);
    expect(reply.headers).toContain('content-type: application/json');
    expect(reply.body).toEqual(errorBody('The request headers are too large.', 431));
  });

  it('bytes that are not HTTP: 400 with the error body', async () => {
    const reply = parse(await rawExchange(server.url, 'HELLO THERE\r\n\r\n'));
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual(errorBody('The request is not valid HTTP.', 400));
  });
});

describe('CONNECT (issue 16 item 9): 405 with the error body, not a closed connection', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('to a host and port: nothing here tunnels, so no method is allowed', async () => {
    const raw = await rawExchange(
      server.url,
      'CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n',
    );
    const reply = parse(raw);
    expect(reply.status, raw).toBe(405);
    expect(reply.headers).toContain('\r\nallow: \r\n');
    expect(reply.headers).toContain('x-content-type-options: nosniff');
    expect(reply.body).toEqual(
      errorBody('Method %fieldValue is not allowed here.', 405, [
        { fieldName: 'method', fieldValue: 'CONNECT' },
      ]),
    );
  });

  it('to a path of the API: Allow names its methods, XML when asked for', async () => {
    const raw = await rawExchange(
      server.url,
      'CONNECT /rest/default/V1/warehouses HTTP/1.1\r\nhost: x\r\naccept: application/xml\r\n\r\n',
    );
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 405 /);
    expect(head.toLowerCase()).toContain('\r\nallow: get\r\n');
    expect(body).toContain('<code>405</code>');
  });
});
