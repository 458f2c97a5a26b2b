/**
 * A local fake of a Shopify store's Admin GraphQL API, for the channel worker's test: every call
 * is parsed, validated and executed against Shopify's published Admin API schema
 * (`@shopify/dev-mcp`'s `admin_schema_2025-01.json.gz`, the introspection of the version the
 * worker calls), so a query or mutation the real API would refuse (an unknown field, a missing
 * argument, a variable of the wrong type) is refused here too and recorded as a violation.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
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
  /** Each GraphQL call as received, with what the schema found wrong in it (nothing, ideally). */
  calls: { query: string; variables: Record<string, unknown>; violations: string[] }[];
  /** The fulfillments created, as `fulfillmentCreate` received them. */
  fulfillments: Record<string, unknown>[];
  close(): Promise<void>;
}

/** Starts the fake with one order, `orderId`, whose one open fulfillment order has `lines`. */
export async function startFakeShopify(orderId: string, lines: FakeLine[]): Promise<FakeShopify> {
  const admin = shopifyAdminSchema();
  const accessToken = 'shpat_fake_0123456789';
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
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accessToken,
    calls,
    fulfillments,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
