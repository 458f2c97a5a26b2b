import { answer, respond } from './answers.js';
import type { RouteOf, ServeRoute } from './exchange.js';
import type { LongPolls } from './long-poll.js';
import { JSON_MEDIA } from './media.js';
import type { Metrics } from './metrics.js';
import { health, ready } from './probes.js';
import { PROMETHEUS_CONTENT_TYPE } from './prometheus.js';
import type { HttpEngine } from './types.js';

/** What a load balancer and a scraper ask: `/health`, `/ready`, `/metrics`. */

export interface ProbeOptions {
  engine: HttpEngine;
  metrics: Metrics | undefined;
  longPolls: LongPolls;
}

export function createProbeRoutes({
  engine,
  metrics,
  longPolls,
}: ProbeOptions): ServeRoute<RouteOf<'health' | 'ready' | 'metrics'>> {
  return async (_request, exchange, route) => {
    if (route.kind === 'health') return respond(200, health(), JSON_MEDIA);
    if (route.kind === 'ready') {
      const status = await ready(engine, (error) => {
        exchange.logDetail = { error: error instanceof Error ? error.message : String(error) };
      });
      return respond(200, status, JSON_MEDIA);
    }
    const depths = await engine.queueDepths().catch(() => null);
    const returns = (await engine.returnCounts?.().catch(() => null)) ?? [];
    const waiting = (await engine.waitingByAge?.().catch(() => null)) ?? [];
    const deadlines = (await engine.deadlineMetrics?.().catch(() => null)) ?? null;
    const held = { waiting: longPolls.waiting };
    return answer(
      200,
      PROMETHEUS_CONTENT_TYPE,
      metrics?.render(depths, held, returns, waiting, deadlines) ?? '',
    );
  };
}
