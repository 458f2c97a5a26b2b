import { performance } from 'node:perf_hooks';
import { describe, expect, test } from 'vitest';
import { call, serverPerTest, TOKENS } from './support.js';

/**
 * One request may cost only so much: a few clients posting the largest XML bodies the server
 * takes must not starve everyone else. A behaviour test of fairness, not a benchmark: the bound
 * is the one a load balancer's health check needs, and generous for a loaded machine.
 */

const serve = serverPerTest();

/** A stock sync of no items padded to about 1 MiB with 45,000 elements the schema ignores. */
function paddedXml(): string {
  return `<request><stock_items/><pad>${'<v>0123456789abcdef</v>'.repeat(45_000)}</pad></request>`;
}

const FLOODERS = 4;
const FLOOD_MS = 3000;

describe('fairness', () => {
  test('/health answers fast while clients flood the server with large XML bodies', async () => {
    const server = await serve();
    const body = paddedXml();
    expect(body.length).toBeLessThan(1024 * 1024);

    const until = performance.now() + FLOOD_MS;
    let posted = 0;
    const statuses = new Set<number>();
    const flood = async () => {
      while (performance.now() < until) {
        const response = await fetch(`${server.url}/rest/default/V1/stockItems`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKENS.all}`, 'content-type': 'application/xml' },
          body,
        });
        await response.arrayBuffer();
        statuses.add(response.status);
        posted += 1;
      }
    };
    const latencies: number[] = [];
    const probe = async () => {
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
    };
    await Promise.all([...Array.from({ length: FLOODERS }, flood), probe()]);

    latencies.sort((a, b) => a - b);
    const median = latencies[Math.floor(latencies.length / 2)] as number;
    const p90 = latencies[Math.floor(latencies.length * 0.9)] as number;
    console.log(
      `fairness: ${posted} XML bodies posted, /health median ${median.toFixed(1)} ms, ` +
        `p90 ${p90.toFixed(1)} ms over ${latencies.length} probes`,
    );
    expect([...statuses]).toEqual([200]);
    expect(posted).toBeGreaterThan(FLOODERS);
    expect(median).toBeLessThan(100);
  }, 30_000);
});

describe('limits', () => {
  test('more than 50,000 XML elements is 413 with the error body, read no further', async () => {
    const server = await serve();
    const xml = `<request><stock_items/><pad>${'<v>1</v>'.repeat(50_000)}</pad></request>`;
    const reply = await call(server, 'POST', '/V1/stockItems', { token: TOKENS.all, xml });
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual({
      message: 'The XML body has more than %fieldValue elements.',
      code: 413,
      parameters: [{ fieldName: 'body', fieldValue: '50000' }],
    });
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
    expect(reply.body).toEqual({
      message: 'The XML body nests elements deeper than %fieldValue levels.',
      code: 400,
      parameters: [{ fieldName: 'body', fieldValue: '16' }],
    });
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
