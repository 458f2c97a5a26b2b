import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createShipEngineCourier } from '../../src/couriers/shipengine-courier.js';
import { startFakeShipEngine } from './fake-shipengine.js';
import { account, parcelRequest, settings } from './shipengine-settings.js';

/**
 * The ShipEngine adapter's calls through Prism (`@stoplight/prism-cli`) as a validating proxy
 * in front of the local fake, against the vendor's own document: Prism answers 422 to a request
 * that breaks the document and flags an answer that does (`sl-violations`), so every call coming
 * back as the fake sent it, unflagged, means 0 request and 0 response violations.
 */

const require = createRequire(import.meta.url);
const prismBin = join(
  dirname(require.resolve('@stoplight/prism-cli/package.json')),
  'dist',
  'index.js',
);
const document = require.resolve('shipengine-openapi/openapi.yaml');
const KEY = 'TEST_prism_key_0123456789';

let prism: ChildProcess | undefined;
afterAll(() => {
  prism?.kill('SIGKILL');
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

it('ShipEngine through Prism, validating against shipengine-openapi: 0 request and 0 response violations', async () => {
  const fake = await startFakeShipEngine(KEY);
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      prismBin,
      'proxy',
      document,
      fake.url,
      '--errors',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  prism = child;
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  await new Promise<void>((ready, failed) => {
    const check = setInterval(() => {
      if (output.includes('Prism is listening')) {
        clearInterval(check);
        ready();
      }
    }, 50);
    child.once('exit', () => {
      clearInterval(check);
      failed(new Error(`prism ended:\n${output}`));
    });
  });
  const seen: { url: string; status: number; violations: string | null }[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    seen.push({
      url: String(input),
      status: response.status,
      violations: response.headers.get('sl-violations'),
    });
    return response;
  };
  try {
    const courier = createShipEngineCourier({ env: { SHIPENGINE_API_KEY: KEY }, fetch: recording })(
      settings,
      account(`http://127.0.0.1:${port}`),
    );
    const call = () => ({ signal: AbortSignal.timeout(30_000), deadline: new Date() });
    const request = parcelRequest(1);
    const { reference } = request;
    const outcomes = [
      await courier.createShipment(request, call()),
      await courier.findShipment(reference, call()),
      await courier.track('se-1', call()),
      await courier.voidLabel('se-1', call()),
      await courier.findShipment('never/shipment-1/1', call()),
    ];
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(seen.map((s) => s.status)).toEqual([200, 200, 200, 200, 404]);
    expect(seen.filter((s) => s.violations !== null)).toEqual([]);
    // Every call reached the fake: Prism answered none of them itself.
    expect(fake.exchanges).toHaveLength(5);
  } finally {
    child.kill('SIGKILL');
    await fake.close();
  }
}, 120_000);
