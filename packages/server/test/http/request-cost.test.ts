import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { call, errorBody, serverPerTest, TOKENS } from './support.js';

/**
 * One request may cost only so much: a few clients posting the largest bodies the server takes,
 * or bodies built to be expensive, must not starve everyone else. A behaviour test of fairness,
 * not a benchmark: the bound is the one a load balancer's health check needs, and generous for a
 * loaded machine.
 */

const serve = serverPerTest();

const FLOODERS = 4;
const FLOOD_MS = 2500;

/** Stock syncs of no items, padded with fields the schema ignores. */
const FLOODS = [
  {
    what: 'XML bodies of 99,990 elements (the most taken)',
    contentType: 'application/xml',
    body: `<request><stock_items/><pad>${'<v>0123456789abcdef</v>'.repeat(99_990)}</pad></request>`,
    status: 200,
  },
  {
    what: 'JSON bodies of 99,990 values (the most taken)',
    contentType: 'application/json',
    body: JSON.stringify({
      stock_items: [],
      pad: Array.from({ length: 49_990 }, () => ({ a: 'x'.repeat(60) })),
    }),
    status: 200,
  },
  {
    what: 'JSON bodies of a million values in 4 MB',
    contentType: 'application/json',
    body: JSON.stringify({
      stock_items: [],
      pad: Array.from({ length: 500_000 }, () => ({ a: 1 })),
    }),
    status: 413,
  },
];

/**
 * Posts `body` in a loop for `ms` from `clients` concurrent clients, on a thread of its own: what
 * the flood costs the clients must not be counted against the server's event loop.
 */
const FLOODER = `
const { parentPort, workerData: w } = require('node:worker_threads');
(async () => {
  const until = Date.now() + w.ms;
  const statuses = {};
  let posted = 0;
  await Promise.all(Array.from({ length: w.clients }, async () => {
    while (Date.now() < until) {
      const response = await fetch(w.url, { method: 'POST', headers: w.headers, body: w.body });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] || 0) + 1;
      posted += 1;
    }
  }));
  parentPort.postMessage({ posted, statuses: Object.keys(statuses).map(Number) });
})();
`;

describe('fairness', () => {
  test.each(FLOODS)(
    '/health answers fast while clients post $what',
    async (flood) => {
      const server = await serve();
      const flooder = new Worker(FLOODER, {
        eval: true,
        workerData: {
          url: `${server.url}/rest/default/V1/stockItems`,
          headers: { authorization: `Bearer ${TOKENS.all}`, 'content-type': flood.contentType },
          body: flood.body,
          clients: FLOODERS,
          ms: FLOOD_MS,
        },
      });
      const report = once(flooder, 'message') as Promise<[{ posted: number; statuses: number[] }]>;
      const until = performance.now() + FLOOD_MS;
      const latencies: number[] = [];
      // Let the flood get going first.
      await new Promise((resolve) => setTimeout(resolve, 200));
      while (performance.now() < until) {
        const started = performance.now();
        const response = await fetch(`${server.url}/health`);
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
        expect(response.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const [{ posted, statuses }] = await report;
      await flooder.terminate();

      latencies.sort((a, b) => a - b);
      const median = latencies[Math.floor(latencies.length / 2)] as number;
      const p90 = latencies[Math.floor(latencies.length * 0.9)] as number;
      console.log(
        `fairness, ${flood.what}: ${posted} posted, /health median ${median.toFixed(1)} ms, ` +
          `p90 ${p90.toFixed(1)} ms over ${latencies.length} probes`,
      );
      expect(statuses).toEqual([flood.status]);
      expect(posted).toBeGreaterThanOrEqual(FLOODERS);
      expect(median).toBeLessThan(100);
    },
    30_000,
  );
});

describe('limits', () => {
  test('more than 100,000 XML elements is 413 with the error body, read no further', async () => {
    const server = await serve();
    const xml = `<request><stock_items/><pad>${'<v>1</v>'.repeat(100_000)}</pad></request>`;
    const reply = await call(server, 'POST', '/V1/stockItems', { token: TOKENS.all, xml });
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual(
      errorBody('The XML body has more than %fieldValue elements.', 413, [
        { fieldName: 'body', fieldValue: '100000' },
      ]),
    );
  });

  test('more than 100,000 JSON values is 413 with the error body; strings do not count', async () => {
    const server = await serve();
    const values = (count: number) =>
      `{"stock_items":[],"pad":[${Array.from({ length: count - 3 }, () => '"a,b[c{\\"d"').join(',')}]}`;
    const accepted = await call(server, 'POST', '/V1/stockItems', {
      token: TOKENS.all,
      headers: { 'content-type': 'application/json' },
      xml: values(100_000),
    });
    expect(accepted.status, accepted.text).toBe(200);
    const reply = await call(server, 'POST', '/V1/stockItems', {
      token: TOKENS.all,
      headers: { 'content-type': 'application/json' },
      xml: values(100_001),
    });
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual(
      errorBody('The JSON body has more than %fieldValue values.', 413, [
        { fieldName: 'body', fieldValue: '100000' },
      ]),
    );
  });

  test('XML nested deeper than 16 levels is 400 with the error body', async () => {
    const server = await serve();
    const deep = (levels: number) =>
      `<request><stock_items/>${'<a>'.repeat(levels)}1${'</a>'.repeat(levels)}</request>`;
    const accepted = await call(server, 'POST', '/V1/stockItems', {
      token: TOKENS.all,
      xml: deep(15),
    });
    expect(accepted.status).toBe(200);
    const reply = await call(server, 'POST', '/V1/stockItems', {
      token: TOKENS.all,
      xml: deep(16),
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual(
      errorBody('The XML body nests elements deeper than %fieldValue levels.', 400, [
        { fieldName: 'body', fieldValue: '16' },
      ]),
    );
    const hostile = await call(server, 'POST', '/V1/stockItems', {
      token: TOKENS.all,
      xml: `<request>${'<a>'.repeat(100_000)}</request>`,
    });
    expect(hostile.status).toBe(400);
  });

  /** The largest legitimate body: 10,000 stock items, codes and skus at their 128-character limit. */
  const largestBatch = () =>
    Array.from({ length: 10_000 }, (_, index) => ({
      warehouse_code: 'WH-A',
      sku: `${'S'.repeat(120)}${String(index).padStart(8, '0')}`,
      qty: 2_000_000_000,
    }));

  test('the largest legitimate stock batch fits, as XML and as JSON', async () => {
    const server = await serve();
    const items = largestBatch();
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<request>\n  <stock_items>\n${items
      .map(
        (item) =>
          `    <item>\n      <warehouse_code>${item.warehouse_code}</warehouse_code>\n      <sku>${item.sku}</sku>\n      <qty>${item.qty}</qty>\n    </item>\n`,
      )
      .join('')}  </stock_items>\n</request>\n`;
    expect(xml.length).toBeGreaterThan(2 * 1024 * 1024);
    const asXml = await call(server, 'POST', '/V1/stockItems', { token: TOKENS.all, xml });
    expect(asXml.status, asXml.text.slice(0, 300)).toBe(200);
    expect(asXml.body).toHaveLength(10_000);
    const asJson = await call(server, 'POST', '/V1/stockItems', {
      token: TOKENS.all,
      json: { stock_items: items.map((item) => ({ ...item, qty: 1 })) },
    });
    expect(asJson.status, asJson.text.slice(0, 300)).toBe(200);
    expect(asJson.body[9_999]).toEqual({ ...items[9_999], qty: 1 });
  });
});
