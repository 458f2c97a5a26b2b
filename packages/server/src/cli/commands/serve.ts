import {
  type ApiAction,
  type CourierCallEvent,
  type Engine,
  isDomainError,
  type Principal,
  QUEUES,
  resourceOf,
  SESSION_HOURS,
  type SeedReport,
  unverified,
} from '@fulfil/core';
import { parseDatabaseUrl, redactDatabaseUrl } from '../../database-url.js';
import { batchedLines } from '../../http/batched-lines.js';
import { DEFAULT_LONG_POLL_LIMITS } from '../../http/long-poll.js';
import type { Metrics } from '../../http/metrics.js';
import { parsePublicUrl } from '../../http/public-url.js';
import { adminBanner, adminEnabled, readAdminSwitch } from '../admin-exposure.js';
import { columns, integerOption, stringOption, UsageError } from '../args.js';
import { carrierBanner } from '../carriers-file.js';
import { connectToPrimary, isServeWorker, runCluster } from '../cluster.js';
import {
  type Command,
  type CommandContext,
  openEngine,
  readJsonFile,
  resolvePath,
} from '../command.js';
import { shellQuote } from '../invocation.js';
import { stoppingLine, stopRequest } from '../shutdown.js';
import { readTracingRequest, type TracingRequest } from '../tracing-env.js';
import type { RunningTracing } from '../tracing-sdk.js';
import { migrationsLine } from './migrate.js';
import { RESEED_HELP } from './seed.js';

/** What `serve` reads of a seed file's tokens; a file that was not loaded may not even be valid. */
interface SeedTokens {
  stores?: { code: string; tokens?: { name: string; token?: string; acl: string | string[] }[] }[];
}

const listOf = <T>(value: T[] | undefined): T[] => (Array.isArray(value) ? value : []);

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
      // The first list the token may read: pending_accept for a partner, pending_allocation for
      // an ERP, the sales orders feed for a channel.
      const grants = (action: ApiAction) =>
        principal.resources.includes(resourceOf(action, engine.aclPrefix));
      const queue = QUEUES.find(grants);
      const path = queue
        ? `fulfillmentOrders/${queue}`
        : grants('read_sales_orders')
          ? 'salesOrders'
          : undefined;
      if (path) {
        const header = `Authorization: Bearer ${token.token}`;
        const listUrl = `${url}/rest/${store.code}/V1/${path}`;
        curls.push(`  curl -H ${shellQuote(header)} ${shellQuote(listUrl)}`);
      }
    }
  }
  if (tokens.length === 0) return '';
  return `\nTokens from the seed file:\n${columns(tokens)}\n\nTry:\n${curls.join('\n')}\n`;
}

function describeSeed(file: string, report: SeedReport): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const { stores, warehouses, stock, tokens, orders } = report;
  const added = (what: string, part: { created: unknown[]; kept: unknown[] }) =>
    `${count(part.created.length, what)} added, ${part.kept.length} kept`;
  return (
    `Seeded from ${file}: ${added('store', stores)}; ${added('warehouse', warehouses)}; ` +
    `${count(stock.created, 'stock row')} added, ${stock.kept} kept; ` +
    `${added('token', tokens)}; ` +
    `fulfillment orders: ${orders.created.length} created (${count(orders.kept.length, 'sales order')} already in).\n`
  );
}

/** The options of `serve`, read and checked before anything is opened. */
interface ServeOptions {
  host: string;
  port: number;
  bodyLimit: number | undefined;
  /** Where clients reach the server, for the OpenAPI document's server URL; default the Host. */
  publicUrl: string | undefined;
  debug: boolean;
  /** Serve Prometheus series at /metrics. */
  metrics: boolean;
  courierInterval: number;
  workers: number;
  /** On SIGTERM/SIGINT, how long requests under way get before their connections are cut. */
  shutdownGraceMs: number;
  /** SQLite: how long a write waits for another process's lock before it is answered 503. */
  lockTimeoutMs: number;
  /** Poll responses kept while the database does not change (0: off), and their bytes at most. */
  responseCache: { entries: number; bytes: number };
  /** Bytes of queue documents kept for polls, by the change that wrote them (0: off). */
  documentCacheBytes: number;
  /** Long polls (`wait`): the longest hold (0: off) and the caps per token and in all. */
  longPoll: { maxWaitMs: number; jitter: number; perToken: number; total: number };
  /** The seed file, and whether to load it only into a database without stores. */
  seed?: { file: string; ifEmpty: boolean };
  /** Whether the admin API is served (admin-exposure.ts), and the proxy's https is trusted. */
  admin: boolean;
  trustProxy: boolean;
  /** How long an operator's session lasts, in hours. */
  sessionHours: number;
  /** What the OTEL_* variables and FULFIL_TRACING ask of traces (tracing-env.ts). */
  tracing: TracingRequest;
}

function publicUrlOption(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    return parsePublicUrl(text);
  } catch (error) {
    throw new UsageError(`--public-url: ${(error as Error).message}`);
  }
}

function readServeOptions(context: CommandContext): ServeOptions {
  const { args } = context;
  const always = stringOption(args, 'seed');
  const ifEmpty = stringOption(args, 'seed-if-empty');
  if (always !== undefined && ifEmpty !== undefined) {
    throw new UsageError('give --seed or --seed-if-empty, not both');
  }
  const workers = integerOption(args, 'workers', { min: 1, max: 1024 }) ?? 1;
  if (workers > 1 && parseDatabaseUrl(context.databaseUrl).kind === 'sqlite-memory') {
    throw new UsageError(
      '--workers needs a database the workers can share: each would have its own sqlite::memory:',
    );
  }
  const seedFile = always ?? ifEmpty;
  const host = stringOption(args, 'host') ?? '127.0.0.1';
  return {
    host,
    admin: adminEnabled(readAdminSwitch(stringOption(args, 'admin')), host),
    trustProxy: args.values['trust-proxy'] === true,
    sessionHours: integerOption(args, 'session-hours', { min: 1, max: 8760 }) ?? SESSION_HOURS,
    port: integerOption(args, 'port', { min: 0, max: 65_535 }) ?? 8080,
    bodyLimit: integerOption(args, 'body-limit', { min: 1 }),
    publicUrl: publicUrlOption(stringOption(args, 'public-url')),
    debug: args.values.debug === true,
    metrics: args.values.metrics === true,
    courierInterval: integerOption(args, 'courier-interval', { min: 0 }) ?? 5000,
    workers,
    shutdownGraceMs: (integerOption(args, 'shutdown-grace', { min: 0, max: 3600 }) ?? 10) * 1000,
    lockTimeoutMs: integerOption(args, 'lock-timeout', { min: 0, max: 3_600_000 }) ?? 5000,
    responseCache: {
      entries: integerOption(args, 'response-cache', { min: 0, max: 1_000_000 }) ?? 1000,
      bytes:
        (integerOption(args, 'response-cache-mb', { min: 1, max: 65_536 }) ?? 64) * 1024 * 1024,
    },
    documentCacheBytes:
      (integerOption(args, 'document-cache-mb', { min: 0, max: 65_536 }) ?? 64) * 1024 * 1024,
    longPoll: {
      ...DEFAULT_LONG_POLL_LIMITS,
      maxWaitMs: (integerOption(args, 'max-wait', { min: 0, max: 3600 }) ?? 25) * 1000,
      perToken:
        integerOption(args, 'max-waiters-per-token', { min: 1, max: 1_000_000 }) ??
        DEFAULT_LONG_POLL_LIMITS.perToken,
      total:
        integerOption(args, 'max-waiters', { min: 1, max: 1_000_000 }) ??
        DEFAULT_LONG_POLL_LIMITS.total,
    },
    ...(seedFile === undefined ? {} : { seed: { file: seedFile, ifEmpty: ifEmpty !== undefined } }),
    tracing: readTracingRequest(context.io.env),
  };
}

/** Loads the seed file when asked to (and, with --seed-if-empty, when the database has no store). */
async function loadSeedIfAsked(
  context: CommandContext,
  engine: Engine,
  seed: ServeOptions['seed'],
  document: unknown,
): Promise<void> {
  if (seed === undefined) return;
  const { io } = context;
  if (!seed.ifEmpty || (await engine.listStores()).length === 0) {
    const report = await engine.loadSeed(unverified(document));
    io.stdout.write(describeSeed(resolvePath(context, seed.file), report));
  } else {
    io.stdout.write(`The database has stores already: ${seed.file} was not loaded.\n`);
  }
}

/** The HTTP server and the courier loop of one process, and how to stop both. */
interface Serving {
  url: string;
  /**
   * No new courier round; the HTTP server shuts down (in-flight requests answered, the rest cut
   * off after the grace period); the engine stays open.
   */
  stop(): Promise<void>;
}

/**
 * Where the engine's carrier calls go: the engine is opened before the metrics exist, which are
 * created (on demand, with the HTTP layer) once serving starts.
 */
let carrierCalls: Pick<Metrics, 'observeCourierCall'> | undefined;
const relayCall = (event: CourierCallEvent) => carrierCalls?.observeCourierCall(event);

/**
 * The OpenTelemetry SDK, when the environment asks for traces; loaded then only. Its warnings
 * (what was asked that this server does not do) go to stderr.
 */
async function startTracingIfAsked(
  context: CommandContext,
  request: TracingRequest,
): Promise<RunningTracing | undefined> {
  const warn = (warning: string) => context.io.stderr.write(`fulfil serve: ${warning}\n`);
  for (const warning of request.warnings) warn(warning);
  if (!request.start) return undefined;
  const { startTracing } = await import('../tracing-sdk.js');
  const { running, warnings } = await startTracing(request);
  for (const warning of warnings) warn(warning);
  return running;
}

/** Starts serving; when that fails (port taken…), closes the engine before rethrowing. */
async function startServing(
  context: CommandContext,
  engine: Engine,
  options: ServeOptions,
  log: (line: string) => void,
): Promise<Serving> {
  const tracing = await startTracingIfAsked(context, options.tracing);
  // Loaded on demand: the other commands never load the HTTP layer.
  const { createMetrics, startCourierLoop, startHttpServer, startSessionSweep } = await import(
    '../../http/index.js'
  );
  const { createConsoleHandler } = await import('@fulfil/console');
  const metrics = options.metrics ? createMetrics() : undefined;
  carrierCalls = metrics;
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    server = await startHttpServer({
      engine,
      host: options.host,
      port: options.port,
      debug: options.debug,
      ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
      ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
      ...(metrics === undefined ? {} : { metrics }),
      shutdownGraceMs: options.shutdownGraceMs,
      responseCache: options.responseCache,
      // The console is the admin API's page: offered with it, never without.
      ...(options.admin
        ? { admin: { trustProxy: options.trustProxy }, console: createConsoleHandler() }
        : {}),
      longPoll: options.longPoll,
      trustProxy: options.trustProxy,
      log,
      ...(options.tracing.probes ? {} : { tracing: false }),
    });
  } catch (error) {
    await engine.close();
    await tracing?.shutdown();
    throw error;
  }
  // Expired sessions go within half a minute, wherever the admin API is served.
  const stopSweep = options.admin ? startSessionSweep(engine, { log }) : async () => {};
  const stopCourier =
    options.courierInterval > 0
      ? startCourierLoop(engine, {
          intervalMs: options.courierInterval,
          log,
          ...(metrics === undefined ? {} : { metrics }),
        })
      : async () => {};
  return {
    url: server.url,
    async stop() {
      await Promise.all([stopCourier(), stopSweep(), server.close()]);
      // The spans of the last requests are exported before the process ends.
      await tracing?.shutdown();
    },
  };
}

/** The lines that tell what serves where, and the seed file's tokens with a curl each. */
async function printBanner(
  context: CommandContext,
  engine: Engine,
  url: string,
  seed: unknown,
  options: ServeOptions,
  workers?: number[],
): Promise<void> {
  const { io } = context;
  const processes = workers ? `, ${workers.length} workers: pids ${workers.join(', ')}` : '';
  io.stdout.write(
    `Fulfil is listening on ${url} (database ${redactDatabaseUrl(context.databaseUrl)}${processes})\n`,
  );
  if (seed !== undefined) io.stdout.write(await seedTokenLines(engine, seed as SeedTokens, url));
  io.stdout.write(await carrierBanner(engine, io.env));
  io.stdout.write(await adminBanner(context, engine, url, options.admin, options.host));
  io.stdout.write('\nPress Ctrl+C to stop.\n');
}

/** One process serves: the default, `--workers 1`. */
async function serveHere(
  context: CommandContext,
  engine: Engine,
  options: ServeOptions,
  seed: unknown,
): Promise<number> {
  const { io } = context;
  // One JSON line per request and per courier round, on stdout like the rest of the server's.
  const log = batchedLines(io.stdout);
  const serving = await startServing(context, engine, options, log);
  const request = stopRequest(io);
  // A graceful stop: no new courier round, in-flight requests answered, then the database.
  const stop = async () => {
    try {
      await serving.stop();
      await engine.close();
    } finally {
      request.dispose();
    }
  };
  try {
    await printBanner(context, engine, serving.url, seed, options);
  } catch (error) {
    await stop();
    throw error;
  }
  io.stdout.write(stoppingLine(await request.reason));
  await stop();
  return 0;
}

/**
 * The primary of `--workers N`: the database is migrated and seeded once, here, before any
 * worker starts; this process then only looks after the workers (cluster.ts).
 */
async function serveCluster(
  context: CommandContext,
  engine: Engine,
  options: ServeOptions,
  seed: unknown,
): Promise<number> {
  try {
    return await runCluster({
      workers: options.workers,
      io: context.io,
      async onListening(url, pids) {
        await printBanner(context, engine, url, seed, options, pids);
        await engine.close();
      },
    });
  } finally {
    await engine.close();
  }
}

/** A worker forked by `--workers N`: serves until the primary (or a signal) says stop. */
async function serveAsWorker(context: CommandContext, options: ServeOptions): Promise<number> {
  const { io } = context;
  const primary = connectToPrimary(io);
  try {
    // Every line says which worker wrote it: {"pid":…,"time":…,…}.
    const write = batchedLines(io.stdout);
    const log = (line: string) =>
      write(line.startsWith('{') ? `{"pid":${process.pid},${line.slice(1)}` : line);
    // The primary has migrated the database.
    const engine = await openEngine(context, {
      skipMigrations: true,
      lockTimeoutMs: options.lockTimeoutMs,
      documentCacheBytes: options.documentCacheBytes,
      sessionHours: options.sessionHours,
      onCourierCall: relayCall,
      ...(options.tracing.probes ? {} : { tracing: false }),
    });
    const serving = await startServing(context, engine, options, log);
    primary.ready(serving.url);
    await primary.stopped;
    try {
      await serving.stop();
    } finally {
      await engine.close();
    }
    return 0;
  } finally {
    primary.close();
  }
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
    workers: {
      type: 'string',
      value: 'n',
      description: 'server processes sharing the port (node:cluster); 1: this process serves',
      default: '1',
    },
    seed: {
      type: 'string',
      value: 'file',
      description: 'load this seed file at start: adds what is missing, changes nothing',
    },
    'seed-if-empty': {
      type: 'string',
      value: 'file',
      description: 'load this seed file only when the database has no store yet',
    },
    admin: {
      type: 'string',
      value: 'auto|on|off',
      description: 'serve the admin API and console (auto: only on a loopback --host)',
      default: 'auto',
    },
    'session-hours': {
      type: 'string',
      value: 'hours',
      description: "how long an operator's console session lasts after its login",
      default: String(SESSION_HOURS),
    },
    'trust-proxy': {
      type: 'boolean',
      description:
        "take the proxy's X-Forwarded-Proto: https (Secure cookies) and its X-Forwarded-For (client address)",
    },
    debug: { type: 'boolean', description: 'include stack traces in error bodies' },
    metrics: {
      type: 'boolean',
      description: 'serve Prometheus metrics at GET /metrics (no token: keep it off the internet)',
    },
    'body-limit': { type: 'string', value: 'bytes', description: 'largest request body accepted' },
    'public-url': {
      type: 'string',
      value: 'url',
      description: 'the URL clients reach the server at behind a proxy (https://host/prefix)',
    },
    'courier-interval': {
      type: 'string',
      value: 'ms',
      description: 'how often the courier dispatch runs (0: never)',
      default: '5000',
    },
    'shutdown-grace': {
      type: 'string',
      value: 'seconds',
      description: 'on SIGTERM/SIGINT, time requests under way get before their connections close',
      default: '10',
    },
    'lock-timeout': {
      type: 'string',
      value: 'ms',
      description: "SQLite: how long a write waits for another process's lock (then 503)",
      default: '5000',
    },
    'response-cache': {
      type: 'string',
      value: 'n',
      description: 'queue poll responses kept per process while the data is unchanged (0: off)',
      default: '1000',
    },
    'max-wait': {
      type: 'string',
      value: 'seconds',
      description: 'longest a queue GET with ?wait= is held (0: never held)',
      default: '25',
    },
    'max-waiters-per-token': {
      type: 'string',
      value: 'n',
      description: 'held queue GETs per token per process; more get 429',
      default: String(DEFAULT_LONG_POLL_LIMITS.perToken),
    },
    'max-waiters': {
      type: 'string',
      value: 'n',
      description: 'held queue GETs per process; more get 429',
      default: String(DEFAULT_LONG_POLL_LIMITS.total),
    },
    'response-cache-mb': {
      type: 'string',
      value: 'MiB',
      description: 'most memory those responses take per process',
      default: '64',
    },
    'document-cache-mb': {
      type: 'string',
      value: 'MiB',
      description:
        'queue documents kept per process for polls, by the change that wrote them (0: off)',
      default: '64',
    },
  },
  details:
    'Serves every store of the database under /rest/<store_code>/V1/… (--store is ignored).\n' +
    'It migrates the database first and prints the migrations it applied, as migrate does.\n' +
    'GET /health (the process answers) and GET /ready (the database answers) need no token;\n' +
    '--metrics adds Prometheus series at GET /metrics.\n' +
    'A queue poll answered before is sent again from memory while nothing in the database has\n' +
    'changed (any commit by any process empties the cache); --response-cache 0 turns that off.\n' +
    'A poll that is no such answer reads which change wrote each order of its page, and only\n' +
    'the documents this process has not read since (--document-cache-mb 0 reads them all).\n' +
    'The admin API (/admin/api) is served on a loopback --host only, unless --admin on; the\n' +
    'banner says how to create the first admin when there is none (fulfil operator create).\n' +
    'A queue GET with ?wait=<seconds> is held until the queue has something new, up to\n' +
    '--max-wait seconds (a little less, at random); a commit by any process wakes it. On\n' +
    'shutdown, held requests are answered at once with what they found (200 [] and the cursor).\n' +
    'With a seed file, prints the secrets of its tokens and a curl command per token to try.\n' +
    `${RESEED_HELP}\n` +
    'On SIGTERM or SIGINT it stops taking new work: idle keep-alive connections close at once,\n' +
    'new requests (those waiting in the listen backlog included) get 503 with Retry-After: 1,\n' +
    'requests in flight are answered, and connections still busy after --shutdown-grace\n' +
    'seconds are closed; then it stops the courier loop, closes the database and exits 0.\n' +
    'A second signal stops at once (exit 1). While the database is unreachable, requests\n' +
    'get 503 with Retry-After: 1; service resumes by itself when it is back.\n' +
    'With --workers N (N > 1), this process migrates and seeds the database once, then forks N\n' +
    'workers that serve the same port, each with its own connection(s) and courier loop; it\n' +
    'restarts a worker that dies, and on SIGTERM or SIGINT stops every worker gracefully and\n' +
    'exits 0 once they have. The workers need a shared database: a file or Postgres.',
  async run(context: CommandContext) {
    const options = readServeOptions(context);
    if (isServeWorker(context.io.env)) return serveAsWorker(context, options);
    // Read the file before opening anything: a typo in its name fails fast.
    const seed = options.seed && (await readJsonFile(context, options.seed.file));
    const engine = await openEngine(context, {
      lockTimeoutMs: options.lockTimeoutMs,
      documentCacheBytes: options.documentCacheBytes,
      sessionHours: options.sessionHours,
      onCourierCall: relayCall,
      ...(options.tracing.probes ? {} : { tracing: false }),
      // A schema change is never silent: the operator sees which migrations this start applied.
      onMigrated: (applied) => {
        if (applied.length > 0) {
          context.io.stdout.write(migrationsLine(applied, context.databaseUrl));
        }
      },
    });
    try {
      await loadSeedIfAsked(context, engine, options.seed, seed);
    } catch (error) {
      await engine.close();
      throw error;
    }
    return options.workers > 1
      ? serveCluster(context, engine, options, seed)
      : serveHere(context, engine, options, seed);
  },
};
