import type { Engine } from '@fulfil/core';

/** Header values as node:http gives them: names lowercased, repeated headers as arrays. */
export type HttpHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A request as the handler sees it: no socket, no stream, just values. */
export interface HttpRequest {
  method: string;
  /** The path only, still percent-encoded, without the query string. */
  path: string;
  query: URLSearchParams | Readonly<Record<string, string | readonly string[] | undefined>>;
  /** Names lowercased. */
  headers: HttpHeaders;
  body: Buffer;
  /** The client's IP address, as the socket has it; failed authentications are counted by it. */
  remoteAddress?: string;
  /** Whether it came over TLS (the admin API's session cookie is then `Secure`). */
  secure?: boolean;
  /**
   * Aborts when the client closes its connection before the answer: a held long poll then ends
   * at once and frees its slot. Absent: the wait runs its course.
   */
  signal?: AbortSignal;
}

/** A response as the handler produces it; the node adapter writes it out. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** Text, written as UTF-8; or the bytes already (a response kept by the response cache). */
  body: string | Buffer;
}

/** A log sink: called once per event with one line, a JSON document, without its newline. */
export type LogFn = (line: string) => void;

/** Writes one structured entry, stamped with the time, as a JSON line. */
export function logEntry(log: LogFn, entry: Record<string, unknown>): void {
  log(JSON.stringify({ time: new Date().toISOString(), ...entry }));
}

/**
 * The part of the engine the server uses: the public use cases, and reads for /ready and
 * /metrics. Without `changeStamp` and `now`, nothing is cached.
 */
export type HttpEngine = Pick<
  Engine,
  | 'authenticate'
  | 'authorize'
  | 'listWarehouses'
  | 'syncStock'
  | 'adjustStock'
  | 'pollDocuments'
  | 'pollPage'
  | 'accept'
  | 'reject'
  | 'allocate'
  | 'ship'
  | 'invoice'
  | 'acceptCancellation'
  | 'rejectCancellation'
  | 'createSalesOrder'
  | 'createSalesOrders'
  | 'getSalesOrder'
  | 'pollSalesOrders'
  | 'createReturn'
  | 'pollReturns'
  | 'receiveReturn'
  | 'creditReturn'
  | 'holdSalesOrder'
  | 'releaseSalesOrder'
  | 'cancelSalesOrder'
  | 'listStores'
  | 'queueDepths'
> &
  Partial<
    Pick<
      Engine,
      | 'changeStamp'
      | 'now'
      | 'admin'
      | 'onQueueChange'
      | 'onTokenChange'
      | 'returnCounts'
      | 'waitingByAge'
      | 'deadlineMetrics'
    >
  > & {
    aclPrefix?: string;
  };

/** The plain request handler: request in, response out, no socket involved. It never throws. */
export interface RequestHandler {
  (request: HttpRequest): Promise<HttpResponse>;
  /**
   * Answers a request with an error found before it could be handled (the node adapter's 413):
   * the same error body, negotiated format and log line as any other.
   */
  fail(request: Omit<HttpRequest, 'body'>, error: unknown): HttpResponse;
  /** Answers every held long poll now with what it last found, and holds no more (shutdown). */
  endWaits(): void;
  /** The long polls held now. */
  readonly waiting: number;
}
