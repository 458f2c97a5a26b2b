import { JsonDocuments } from './json-documents.js';
import type { Look } from './long-poll.js';
import type { Operation, OperationInput } from './routes.js';
import type { HttpEngine } from './types.js';

/**
 * One look of a long poll at what it waits on, a queue or a feed (any operation answering a
 * page as `JsonDocuments` with its poll facts): the operation run again, never answered from the
 * cache. Made apart from the request's handling so that a held request keeps only these alive.
 */
export function queueLook(
  engine: HttpEngine,
  operation: Operation,
  input: OperationInput,
): () => Promise<Look<unknown>> {
  return async () => {
    const result = await operation.run(engine, input);
    const page = result instanceof JsonDocuments ? result : undefined;
    return {
      result,
      ready: !page || page.documents.length > 0,
      pending: page?.poll?.pending ?? false,
      storeId: page?.poll?.storeId ?? null,
    };
  };
}

/**
 * What makes two held requests' looks the same read: the route, the store, the warehouses the
 * token is scoped to and the query (but `wait`, which changes how long, not what). Their
 * resources were checked before they were held and change nothing of what is read.
 */
export function lookShare(operation: Operation, input: OperationInput): string {
  const { principal, query } = input;
  const { wait: _wait, ...read } = query;
  return JSON.stringify([
    operation.operationId,
    principal.store_code,
    principal.warehouses ?? null,
    read,
  ]);
}
