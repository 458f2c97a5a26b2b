import { HttpError } from './errors.js';
import type { HttpEngine } from './types.js';

/**
 * The probes an orchestrator polls, outside `/rest/{store}` and without a token: `/health` says
 * the process answers (it touches nothing else, so a slow database never fails it), `/ready`
 * says it can serve, which needs its database.
 */

export const HEALTH_PATH = '/health';
export const READY_PATH = '/ready';

export function health(): { status: 'ok' } {
  return { status: 'ok' };
}

/** Seconds a client is asked to wait while the database is away. */
const RETRY_AFTER_SECONDS = '1';

/** A trivial read through the engine; any failure of it means "not ready", never a 500. */
export async function ready(
  engine: Pick<HttpEngine, 'listStores'>,
  onFailure: (error: unknown) => void,
): Promise<{ status: 'ready' }> {
  try {
    await engine.listStores();
  } catch (error) {
    onFailure(error);
    throw new HttpError(503, 'The database is not reachable.', [], {
      'retry-after': RETRY_AFTER_SECONDS,
    });
  }
  return { status: 'ready' };
}
