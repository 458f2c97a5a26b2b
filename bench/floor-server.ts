/**
 * The floors of the HTTP scenarios: bare node:http servers, run as child processes like the
 * server under test. Prints `floor listening on http://127.0.0.1:<port>`; stops on SIGTERM.
 *
 *   bytes <file> <content-type>      answers every request with the file's bytes (the poll floor)
 *   accept-sqlite <file>             accepts orders of the floor's store (floor-schema.ts) in a
 *   accept-postgres <url> <schema>   SQLite file or a Postgres schema; GET answers
 *                                    `{"pending_allocation":<n>}`
 *   wake                             the long-poll floor: GET is held until a POST, which answers
 *                                    every held GET with `[]`, then itself with `{"woke":<n>}`
 *   intake-sqlite <file> <r>         takes in the sales orders of a POST (`sales_order`, or up
 *   intake-postgres <url> <schema> <r>  to 100 `sales_orders`) in one transaction; answers 201
 *                                    with their accepts; GET answers `{"pending_accept":<n>}`.
 *                                    <r>: `reserving` or `not-reserving` (floor-store.ts)
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { openFloorPostgres } from './floor-postgres.js';
import type { AcceptRequest } from './floor-schema.js';
import { openFloorSqlite } from './floor-sqlite.js';
import type { FloorReservation, FloorSalesOrder, FloorStore } from './floor-store.js';

type Handler = (req: IncomingMessage, body: Buffer, res: ServerResponse) => Promise<void> | void;

function bytesHandler(file: string, contentType: string): Handler {
  const bytes = readFileSync(file);
  return (_req, _body, res) => {
    res.writeHead(200, { 'content-type': contentType, 'content-length': bytes.length });
    res.end(bytes);
  };
}

/** Answers `text` as JSON with `status`. */
function json(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function acceptHandler(store: FloorStore): Handler {
  return async (req, body, res) => {
    try {
      if (req.method === 'GET') {
        json(
          res,
          200,
          JSON.stringify({ pending_allocation: await store.count('pending_allocation') }),
        );
        return;
      }
      json(res, 200, await store.accept(JSON.parse(body.toString('utf8')) as AcceptRequest));
    } catch (error) {
      json(res, 400, JSON.stringify({ message: String(error) }));
    }
  };
}

/** Intake as the floor does it (floor-store.ts): one transaction per request, like ours. */
function intakeHandler(store: FloorStore): Handler {
  return async (req, body, res) => {
    try {
      if (req.method === 'GET') {
        json(res, 200, JSON.stringify({ pending_accept: await store.count('pending_accept') }));
        return;
      }
      const request = JSON.parse(body.toString('utf8')) as {
        sales_order?: FloorSalesOrder;
        sales_orders?: FloorSalesOrder[];
      };
      const orders = request.sales_orders ?? (request.sales_order ? [request.sales_order] : []);
      json(res, 201, JSON.stringify(await store.intake(orders)));
    } catch (error) {
      json(res, 400, JSON.stringify({ message: String(error) }));
    }
  };
}

/** Holds every GET; a POST answers them all, then itself: a wake-up with nothing else to it. */
function wakeHandler(): Handler {
  const held: ServerResponse[] = [];
  const answer = (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 });
    res.end('[]');
  };
  return (req, _body, res) => {
    if (req.method !== 'POST') {
      held.push(res);
      return;
    }
    const woken = held.splice(0);
    for (const waiting of woken) answer(waiting);
    const text = JSON.stringify({ woke: woken.length });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length });
    res.end(text);
  };
}

/** `reserving` or `not-reserving`, as the intake modes take it. */
function reservationOf(arg: string | undefined): FloorReservation {
  if (arg === 'reserving') return 'reserving';
  if (arg === 'not-reserving') return 'not reserving';
  throw new Error(`floor-server: "reserving" or "not-reserving", not "${arg}"`);
}

async function handlerFor(mode: string, args: string[]): Promise<[Handler, () => Promise<void>]> {
  const [first = '', second = ''] = args;
  switch (mode) {
    case 'bytes':
      return [bytesHandler(first, second), async () => {}];
    case 'accept-sqlite': {
      const store = openFloorSqlite(first, false);
      return [acceptHandler(store), () => store.close()];
    }
    case 'accept-postgres': {
      const store = await openFloorPostgres(first, second, false);
      return [acceptHandler(store), () => store.close()];
    }
    case 'wake':
      return [wakeHandler(), async () => {}];
    case 'intake-sqlite': {
      const store = openFloorSqlite(first, false, reservationOf(args[1]));
      return [intakeHandler(store), () => store.close()];
    }
    case 'intake-postgres': {
      const store = await openFloorPostgres(first, second, false, reservationOf(args[2]));
      return [intakeHandler(store), () => store.close()];
    }
    default:
      throw new Error(`floor-server: unknown mode "${mode}"`);
  }
}

const [mode = '', ...args] = process.argv.slice(2);
const [handle, close] = await handlerFor(mode, args);
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => void handle(req, Buffer.concat(chunks), res));
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`floor listening on http://127.0.0.1:${port}\n`);
});
process.once('SIGTERM', () => {
  server.close(() => void close().then(() => process.exit(0)));
  server.closeAllConnections();
});
