import {
  type Engine,
  isDomainError,
  type Principal,
  type QueueName,
  resourceOf,
  type SeedReport,
} from '@fulfil/core';
import { redactDatabaseUrl } from '../../database-url.js';
import { columns, integerOption, stringOption, UsageError } from '../args.js';
import {
  type Command,
  type CommandContext,
  openEngine,
  readJsonFile,
  resolvePath,
} from '../command.js';
import { stopRequest } from '../shutdown.js';

/** What `serve` reads of a seed file's tokens; a file that was not loaded may not even be valid. */
interface SeedTokens {
  stores?: { code: string; tokens?: { name: string; token?: string; acl: string | string[] }[] }[];
}

const listOf = <T>(value: T[] | undefined): T[] => (Array.isArray(value) ? value : []);

/** The queues a curl example may poll, in the order of the flow. */
const QUEUES: readonly QueueName[] = [
  'pending_accept',
  'pending_allocation',
  'pending_shipment',
  'pending_invoice',
  'failed',
];

/**
 * The seed file's tokens that work in this database, with one curl each. Only hashes are stored,
 * so the secrets are read back from the file; a token the database kept from an earlier seed
 * with another secret does not authenticate and is left out.
 */
async function seedTokenLines(engine: Engine, seed: SeedTokens, url: string): Promise<string> {
  const tokens: [string, string][] = [];
  const curls: string[] = [];
  for (const store of listOf(seed.stores)) {
    for (const token of listOf(store.tokens)) {
      if (typeof token.token !== 'string') continue;
      let principal: Principal;
      try {
        principal = await engine.authenticate(store.code, token.token);
      } catch (error) {
        if (isDomainError(error)) continue;
        throw error;
      }
      const role = typeof token.acl === 'string' ? token.acl : 'custom';
      tokens.push([`${token.name} (${role}, store ${store.code})`, token.token]);
      // The first queue the token may poll: pending_accept for a partner, pending_allocation for an ERP.
      const queue = QUEUES.find((candidate) =>
        principal.resources.includes(resourceOf(candidate, engine.deps.aclPrefix)),
      );
      if (queue) {
        curls.push(
          `  curl -H 'Authorization: Bearer ${token.token}' ${url}/rest/${store.code}/V1/fulfillmentOrders/${queue}`,
        );
      }
    }
  }
  if (tokens.length === 0) return '';
  return `\nTokens from the seed file:\n${columns(tokens)}\n\nTry:\n${curls.join('\n')}\n`;
}

function describeSeed(file: string, report: SeedReport): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const { tokens, orders } = report;
  return (
    `Seeded from ${file}: ${count(report.stores, 'store')}, ` +
    `${count(report.warehouses, 'warehouse')}, ${count(report.stock, 'stock row')}; ` +
    `tokens: ${tokens.created.length} created, ${tokens.kept.length} kept; ` +
    `fulfillment orders: ${orders.created.length} created (${count(orders.kept.length, 'sales order')} already in).\n`
  );
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Run the REST server and the courier dispatch loop until SIGTERM or SIGINT.',
  positionals: [],
  options: {
    host: {
      type: 'string',
      value: 'host',
      description: 'address to listen on',
      default: '127.0.0.1',
    },
    port: {
      type: 'string',
      value: 'port',
      description: 'port to listen on (0: any free port)',
      default: '8080',
    },
    seed: {
      type: 'string',
      value: 'file',
      description: 'load this seed file at start (idempotent)',
    },
    'seed-if-empty': {
      type: 'string',
      value: 'file',
      description: 'load this seed file only when the database has no store yet',
    },
    debug: { type: 'boolean', description: 'include stack traces in error bodies' },
    'body-limit': { type: 'string', value: 'bytes', description: 'largest request body accepted' },
    'courier-interval': {
      type: 'string',
      value: 'ms',
      description: 'how often the courier dispatch runs (0: never)',
      default: '5000',
    },
  },
  details:
    'Serves every store of the database under /rest/<store_code>/V1/… (--store is ignored).\n' +
    'With a seed file, prints the secrets of its tokens and a curl command per token to try.\n' +
    'On SIGTERM or SIGINT it stops the courier loop, finishes in-flight requests, closes the\n' +
    'database and exits 0.',
  async run(context: CommandContext) {
    const { args, io } = context;
    const host = stringOption(args, 'host') ?? '127.0.0.1';
    const port = integerOption(args, 'port', { min: 0, max: 65_535 }) ?? 8080;
    const bodyLimit = integerOption(args, 'body-limit', { min: 1 });
    const courierInterval = integerOption(args, 'courier-interval', { min: 0 }) ?? 5000;
    const always = stringOption(args, 'seed');
    const ifEmpty = stringOption(args, 'seed-if-empty');
    if (always !== undefined && ifEmpty !== undefined) {
      throw new UsageError('give --seed or --seed-if-empty, not both');
    }
    const seedFile = always ?? ifEmpty;
    // Read the file before opening anything: a typo in its name fails fast.
    const seed = seedFile === undefined ? undefined : await readJsonFile(context, seedFile);

    // Loaded on demand: the other commands never load the HTTP layer.
    const { startCourierLoop, startHttpServer } = await import('../../http/index.js');
    const engine = await openEngine(context);
    // One JSON line per request and per courier round, on stdout like the rest of the server's.
    const log = (line: string) => io.stdout.write(`${line}\n`);
    let server: Awaited<ReturnType<typeof startHttpServer>>;
    try {
      if (
        seedFile !== undefined &&
        (always !== undefined || (await engine.listStores()).length === 0)
      ) {
        const report = await engine.loadSeed(seed);
        io.stdout.write(describeSeed(resolvePath(context, seedFile), report));
      } else if (seedFile !== undefined) {
        io.stdout.write(`The database has stores already: ${seedFile} was not loaded.\n`);
      }
      server = await startHttpServer({
        engine,
        host,
        port,
        debug: args.values.debug === true,
        ...(bodyLimit === undefined ? {} : { bodyLimit }),
        log,
      });
    } catch (error) {
      await engine.close();
      throw error;
    }
    const stopCourier =
      courierInterval > 0
        ? startCourierLoop(engine, { intervalMs: courierInterval, log })
        : async () => {};
    const request = stopRequest(io);
    // A graceful stop: no new courier round, in-flight requests answered, then the database.
    const stop = async () => {
      try {
        await stopCourier();
        await server.close();
        await engine.close();
      } finally {
        request.dispose();
      }
    };
    try {
      io.stdout.write(
        `Fulfil is listening on ${server.url} (database ${redactDatabaseUrl(context.databaseUrl)})\n`,
      );
      if (seed !== undefined) {
        io.stdout.write(await seedTokenLines(engine, seed as SeedTokens, server.url));
      }
      io.stdout.write('\nPress Ctrl+C to stop.\n');
    } catch (error) {
      await stop();
      throw error;
    }
    const reason = await request.reason;
    io.stdout.write(
      reason === 'orphaned'
        ? 'The script that started fulfil has ended: stopping…\n'
        : `${reason} received: stopping…\n`,
    );
    await stop();
    return 0;
  },
};
