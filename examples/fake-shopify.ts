/**
 * A local fake of a Shopify store's Admin GraphQL API, for the channel worker's test: every call
 * is parsed, validated and executed against Shopify's published Admin API schema
 * (`@shopify/dev-mcp`'s `admin_schema_2025-01.json.gz`, the introspection of the version the
 * worker calls), so a query or mutation the real API would refuse (an unknown field, a missing
 * argument, a variable of the wrong type) is refused here too and recorded as a violation.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import {
  buildClientSchema,
  execute,
  type GraphQLSchema,
  type IntrospectionQuery,
  parse,
  validate,
} from 'graphql';

const require = createRequire(import.meta.url);

let schema: GraphQLSchema | undefined;

/** Shopify's Admin GraphQL schema of 2025-01, as Shopify publishes it. */
export function shopifyAdminSchema(): GraphQLSchema {
  if (!schema) {
    const file = require.resolve('@shopify/dev-mcp/data/admin_schema_2025-01.json.gz');
    const introspection = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as {
      data: IntrospectionQuery;
    };
    schema = buildClientSchema(introspection.data);
  }
  return schema;
}

/** One fulfillment order line of the fake store. */
export interface FakeLine {
  id: string;
  sku: string;
  remainingQuantity: number;
}

export interface FakeShopify {
  url: string;
  accessToken: string;
  /** The next `calls` calls answer 503, as Shopify does when it is down; then it answers again. */
  fail(calls: number): void;
  /** Each GraphQL call as received, with what the schema found wrong in it (nothing, ideally). */
  calls: { query: string; variables: Record<string, unknown>; violations: string[] }[];
  /** The fulfillments created, as `fulfillmentCreate` received them. */
  fulfillments: Record<string, unknown>[];
  close(): Promise<void>;
}

/**
 * Starts the fake with one order, `orderId`, whose one open fulfillment order has `lines`, on
 * `port` (default: any free one) of 127.0.0.1.
 */
export async function startFakeShopify(
  orderId: string,
  lines: FakeLine[],
  options: { port?: number; log?: (line: string) => void } = {},
): Promise<FakeShopify> {
  const admin = shopifyAdminSchema();
  const accessToken = 'shpat_fake_0123456789';
  let failing = 0;
  const calls: FakeShopify['calls'] = [];
  const fulfillments: Record<string, unknown>[] = [];
  const rootValue = {
    order: ({ id }: { id: string }) =>
      id === `gid://shopify/Order/${orderId}`
        ? {
            fulfillmentOrders: {
              nodes: [
                {
                  id: 'gid://shopify/FulfillmentOrder/1046000001',
                  status: lines.some((line) => line.remainingQuantity > 0) ? 'OPEN' : 'CLOSED',
                  lineItems: { nodes: lines },
                },
              ],
            },
          }
        : null,
    fulfillmentCreate: ({ fulfillment }: { fulfillment: Record<string, unknown> }) => {
      fulfillments.push(fulfillment);
      options.log?.(`fulfillmentCreate: ${JSON.stringify(fulfillment)}`);
      const entries = fulfillment.lineItemsByFulfillmentOrder as {
        fulfillmentOrderLineItems?: { id: string; quantity: number }[];
      }[];
      for (const entry of entries) {
        for (const item of entry.fulfillmentOrderLineItems ?? []) {
          const line = lines.find((candidate) => candidate.id === item.id);
          if (line) line.remainingQuantity -= item.quantity;
        }
      }
      return {
        fulfillment: { id: `gid://shopify/Fulfillment/${fulfillments.length}`, status: 'SUCCESS' },
        userErrors: [],
      };
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      if (req.url !== '/admin/api/2025-01/graphql.json' || req.method !== 'POST') {
        return answer(404, { errors: 'Not Found' });
      }
      if (req.headers['x-shopify-access-token'] !== accessToken) {
        return answer(401, { errors: '[API] Invalid API key or access token' });
      }
      if (failing > 0) {
        failing -= 1;
        return answer(503, { errors: 'Service Unavailable' });
      }
      const { query, variables = {} } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        query: string;
        variables?: Record<string, unknown>;
      };
      const call = { query, variables, violations: [] as string[] };
      calls.push(call);
      try {
        const document = parse(query);
        const invalid = validate(admin, document);
        if (invalid.length) {
          call.violations.push(...invalid.map((error) => error.message));
          return answer(200, { errors: invalid.map((error) => ({ message: error.message })) });
        }
        // Executing against the schema coerces the variables by it: a wrong type is an error.
        const result = await execute({
          schema: admin,
          document,
          rootValue,
          variableValues: variables,
        });
        call.violations.push(...(result.errors ?? []).map((error) => error.message));
        return answer(200, result);
      } catch (error) {
        call.violations.push(String(error));
        return answer(200, { errors: [{ message: String(error) }] });
      }
    });
  });
  await new Promise<void>((done) => server.listen(options.port ?? 0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accessToken,
    fail: (count) => {
      failing = count;
    },
    calls,
    fulfillments,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** The sample `orders/create` payload beside this file: an order of two demo skus. */
export const SAMPLE_ORDER_FILE = fileURLToPath(new URL('./shopify-order.json', import.meta.url));

/** The fake's store of `payload`: its order id, one open fulfillment order line per line item. */
export function fakeLinesOf(payload: {
  admin_graphql_api_id: string;
  line_items: { sku?: string | null; quantity: number }[];
}): { orderId: string; lines: FakeLine[] } {
  const orderId = payload.admin_graphql_api_id.replace('gid://shopify/Order/', '');
  const lines = payload.line_items.map((line, index) => ({
    id: `gid://shopify/FulfillmentOrderLineItem/${index + 1}`,
    sku: line.sku ?? '',
    remainingQuantity: line.quantity,
  }));
  return { orderId, lines };
}

/** `X-Shopify-Hmac-Sha256` of a delivery: the base64 HMAC-SHA256 of its raw body. */
export function shopifyHmac(body: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

// `npx tsx examples/fake-shopify.ts [port]`: the fake with the sample order, for the channel
// worker to be tried against (examples/README.md).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const raw = readFileSync(SAMPLE_ORDER_FILE);
  const { orderId, lines } = fakeLinesOf(JSON.parse(raw.toString('utf8')));
  const secret = process.env.SHOPIFY_WEBHOOK_SECRET ?? 'fake-shopify-webhook-secret';
  const fake = await startFakeShopify(orderId, lines, {
    port: Number(process.argv[2] ?? 3001),
    log: (line) => console.log(`fake-shopify: ${line}`),
  });
  console.log(`A fake Shopify Admin API at ${fake.url}, with order ${orderId} of examples/shopify-order.json.

Start the channel worker against it (with \`pnpm start\` serving the demo):
  FULFIL_TOKEN=demo-channel-shop-7e2a9c4f1b8d3e6a0c5f2b9d4a7e1c3f SHOPIFY_URL=${fake.url} \\
  SHOPIFY_ACCESS_TOKEN=${fake.accessToken} SHOPIFY_WEBHOOK_SECRET=${secret} \\
  npx tsx examples/channel-worker.ts

Deliver the order's orders/create webhook to it, as Shopify would:
  curl -i -X POST http://127.0.0.1:3000/webhooks/orders-create -H 'Content-Type: application/json' \\
    -H 'X-Shopify-Hmac-Sha256: ${shopifyHmac(raw, secret)}' --data-binary @examples/shopify-order.json

Ctrl+C stops it.`);
  process.once('SIGINT', () => void fake.close());
}
