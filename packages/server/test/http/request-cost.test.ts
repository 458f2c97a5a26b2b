import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { describe, expect, test, vi } from 'vitest';
import { assertJsonValuesWithin, DEFAULT_JSON_VALUES } from '../../src/http/json-cost.js';
import { parseXmlRequest } from '../../src/http/xml.js';
import { call, errorBody, serverPerTest, TOKENS } from './support.js';

/**
 * One request may cost only so much: a few clients posting the largest bodies the server takes,
 * or bodies built to be expensive, must not starve everyone else. A behaviour test of fairness,
 * not a benchmark: no bound in milliseconds, which a slow or busy machine would break. What keeps
 * it fair is counted instead: reading a body gives the event loop back every so much work, and a
 * body over the limit is refused without being parsed. Under a flood, a health check is then
 * answered sooner than a flooding request, both timed in the same run.
 */

const serve = serverPerTest();

const FLOODERS = 4;
const FLOOD_MS = 2500;

interface Flood {
  what: string;
  contentType: string;
  body: string;
  status: number;
  /** Cheap to refuse: the values are counted, never parsed. */
  refusedUnparsed?: boolean;
}

/** Stock syncs of no items, padded with fields the schema ignores. */
const FLOODS: Flood[] = [
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
    refusedUnparsed: true,
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
  const durations = [];
  await Promise.all(Array.from({ length: w.clients }, async () => {
    while (Date.now() < until) {
      const started = performance.now();
      const response = await fetch(w.url, { method: 'POST', headers: w.headers, body: w.body });
      await response.arrayBuffer();
      durations.push(performance.now() - started);
      statuses[response.status] = (statuses[response.status] || 0) + 1;
    }
  }));
  parentPort.postMessage({ durations, statuses: Object.keys(statuses).map(Number) });
})();
`;

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

describe('fairness', () => {
  test.each(FLOODS)(
    '/health is answered sooner than a flooding request while clients post $what',
    async (flood) => {
      const server = await serve();
      const parse = vi.spyOn(JSON, 'parse');
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
      const report = once(flooder, 'message') as Promise<
        [{ durations: number[]; statuses: number[] }]
      >;
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
      const [{ durations, statuses }] = await report;
      await flooder.terminate();
      const parsedFloods = parse.mock.calls.filter(
        ([text]) => typeof text === 'string' && text.length === flood.body.length,
      ).length;
      parse.mockRestore();

      const health = median(latencies);
      const posted = median(durations);
      console.log(
        `fairness, ${flood.what}: ${durations.length} posted, each ${posted.toFixed(1)} ms ` +
          `(median), /health median ${health.toFixed(1)} ms over ${latencies.length} probes, ` +
          `ratio ${(health / posted).toFixed(3)}`,
      );
      expect(statuses).toEqual([flood.status]);
      expect(durations.length).toBeGreaterThanOrEqual(FLOODERS);
      if (flood.refusedUnparsed) {
        expect(parsedFloods).toBe(0);
      } else if (flood.contentType === 'application/json') {
        // The spy does see the server's parses.
        expect(parsedFloods).toBeGreaterThan(0);
      }
      // Generous on purpose: the turns counted below are the proof, this the end-to-end check.
      expect(health).toBeLessThan(posted);
    },
    30_000,
  );
});

/** How many turns the event loop took while `work` ran: none when it never gave the loop back. */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let working = true;
  const turn = () => {
    if (!working) return;
    turns += 1;
    setImmediate(turn);
  };
  setImmediate(turn);
  try {
    await work();
  } finally {
    working = false;
  }
  return turns;
}

describe('turns', () => {
  const [xml, json, million] = FLOODS as [Flood, Flood, Flood];

  test('reading the largest XML body gives the event loop back every 1,000 elements', async () => {
    const elements = xml.body.match(/<[^/]/g)?.length ?? 0;
    expect(await turnsDuring(() => parseXmlRequest(xml.body))).toBeGreaterThanOrEqual(
      Math.floor(elements / 1000),
    );
  });

  test('counting the values of the largest JSON body gives the loop back every 256 KiB', async () => {
    expect(
      await turnsDuring(() => assertJsonValuesWithin(json.body, DEFAULT_JSON_VALUES)),
    ).toBeGreaterThanOrEqual(Math.floor(json.body.length / (256 * 1024)));
  });

  test('counting stops at the limit: a million values are refused before the end', async () => {
    const refused = assertJsonValuesWithin(million.body, DEFAULT_JSON_VALUES);
    await expect(refused).rejects.toMatchObject({ status: 413 });
  });
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
