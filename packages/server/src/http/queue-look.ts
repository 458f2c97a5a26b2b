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
