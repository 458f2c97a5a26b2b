import type { RoutingDecision } from './explanation.js';

/** Why a sales order's lines went where they went: the rules' decision, or a custom router's. */
export type RoutingRecord = { by: 'rules'; decision: RoutingDecision } | { by: 'router' };
