import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readTracingRequest } from '../../src/cli/tracing-env.js';
import { PARTNER_SECRET, smallSeed, tempDir, writeJson } from '../cli/run-cli.js';
import { startServe } from '../cli/serve-process.js';

/**
 * `fulfil serve` starts the OpenTelemetry SDK when the OTEL_* variables ask for traces, and
 * exports them over OTLP/HTTP; without them no SDK is registered, nor even imported.
 */

describe('what the environment asks of traces', () => {
  it.each([
    [{}, false, []],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true, ['otlp']],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true, ['otlp']],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true, ['otlp']],
    [{ OTEL_TRACES_EXPORTER: 'console,otlp' }, true, ['console', 'otlp']],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, false, []],
    [{ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, false, ['otlp']],
    [{ FULFIL_TRACING: 'off', OTEL_TRACES_EXPORTER: 'otlp' }, false, ['otlp']],
  ])('%j: SDK %s', (env, start, exporters) => {
    const request = readTracingRequest(env);
    expect(request.start).toBe(start);
    expect(request.exporters).toEqual(exporters);
  });

  it.each([
    [{}, 1],
    [{ FULFIL_TRACING_SQL_MIN_MS: '0' }, 0],
    [{ FULFIL_TRACING_SQL_MIN_MS: '2.5' }, 2.5],
  ])('%j: a statement has a span from %s ms', (env, ms) => {
    expect(readTracingRequest(env).statementMinMs).toBe(ms);
  });

  it('says what it does not do', () => {
    expect(
      readTracingRequest({
        OTEL_TRACES_EXPORTER: 'zipkin,otlp',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      }).warnings,
    ).toEqual([
      'OTEL_TRACES_EXPORTER=zipkin: not an exporter of this server (otlp, console, none)',
      'OTEL_EXPORTER_OTLP_PROTOCOL=grpc: this server exports http/protobuf',
    ]);
    const wrong = readTracingRequest({ FULFIL_TRACING_SQL_MIN_MS: '-1' });
    expect(wrong.statementMinMs).toBe(1);
    expect(wrong.warnings).toEqual(['FULFIL_TRACING_SQL_MIN_MS=-1: not a number of ms >= 0; 1']);
  });
});

/** Whether an SDK's tracer provider is registered with the API. */
const registered = () =>
  (trace.getTracerProvider() as unknown as { getDelegate(): object }).getDelegate().constructor
    .name !== 'NoopTracerProvider';

/** A collector on loopback that keeps what it is sent. */
async function startCollector() {
  const received: { path: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    received.push({
      path: request.url ?? '',
      headers: request.headers,
      body: Buffer.concat(chunks),
    });
    response.writeHead(200, { 'content-type': 'application/x-protobuf' });
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('fulfil serve and the OpenTelemetry SDK', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('exports the spans of each request over OTLP/HTTP, and logs their trace id', async () => {
    const { dir, remove } = await tempDir();
    const collector = await startCollector();
    try {
      vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', collector.url);
      vi.stubEnv('OTEL_SERVICE_NAME', 'fulfil-traced');
      // Every statement: quick ones would have no span by default.
      vi.stubEnv('FULFIL_TRACING_SQL_MIN_MS', '0');
      const seedFile = await writeJson(join(dir, 'seed.json'), smallSeed());
      const serve = startServe(
        ['--db', 'sqlite::memory:', '--seed', seedFile, '--courier-interval', '0'],
        {
          env: process.env,
        },
      );
      const url = await serve.ready();
      const polled = await fetch(`${url}/rest/default/V1/fulfillmentOrders/pending_accept`, {
        headers: { Authorization: `Bearer ${PARTNER_SECRET}` },
      });
      expect(polled.status).toBe(200);
      serve.signals.emit('SIGTERM');
      expect(await serve.done).toBe(0);

      // Exported at shutdown at the latest, as protobuf.
      const exports = collector.received.filter((entry) => entry.path === '/v1/traces');
      expect(exports.length).toBeGreaterThan(0);
      expect(exports[0]?.headers['content-type']).toBe('application/x-protobuf');
      const bytes = Buffer.concat(exports.map((entry) => entry.body)).toString('latin1');
      for (const text of [
        'fulfil-traced',
        'GET /rest/{store_code}/V1/fulfillmentOrders/pending_accept',
        'db.query.summary',
      ]) {
        expect(bytes, text).toContain(text);
      }
      expect(bytes).not.toContain(PARTNER_SECRET);
      const line = serve.stdout.text
        .split('\n')
        .filter((entry) => entry.startsWith('{'))
        .map((entry) => JSON.parse(entry) as Record<string, unknown>)
        .find((entry) => entry.msg === 'request');
      expect(line?.trace_id).toMatch(/^[0-9a-f]{32}$/);
      expect(line?.span_id).toMatch(/^[0-9a-f]{16}$/);
      // The SDK is unregistered once the server has stopped.
      expect(registered()).toBe(false);
    } finally {
      await collector.close();
      await remove();
    }
  });

  it('without OTEL_* variables registers no SDK, and its log lines have no trace id', async () => {
    const { dir, remove } = await tempDir();
    try {
      const seedFile = await writeJson(join(dir, 'seed.json'), smallSeed());
      const serve = startServe([
        '--db',
        'sqlite::memory:',
        '--seed',
        seedFile,
        '--courier-interval',
        '0',
      ]);
      const url = await serve.ready();
      expect(registered()).toBe(false);
      await fetch(`${url}/rest/default/V1/fulfillmentOrders/pending_accept`, {
        headers: { Authorization: `Bearer ${PARTNER_SECRET}` },
      });
      serve.signals.emit('SIGTERM');
      expect(await serve.done).toBe(0);
      expect(serve.stdout.text).toContain('"msg":"request"');
      expect(serve.stdout.text).not.toContain('trace_id');
    } finally {
      await remove();
    }
  });

  it('the built CLI imports no OpenTelemetry package until traces are asked for', () => {
    // A bundle hoists static imports of packages to its top: only `import()` keeps them lazy.
    const cli = readFileSync(new URL('../../dist/cli.js', import.meta.url), 'utf8');
    expect(cli).toContain('@opentelemetry/sdk-trace');
    expect(cli.match(/^import[^;]*["']@opentelemetry\/[^"']+["']/gm) ?? []).toEqual([]);
  });
});
