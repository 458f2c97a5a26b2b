import type { BulkAction, OperatorInput } from './schemas/admin.js';
import type { Unverified } from './schemas/unverified.js';
import { requireGlobalAdmin } from './use-cases/admin-access.js';
import { dashboard } from './use-cases/admin-dashboard.js';
import { bulkChangeFulfillBy, changeFulfillBy } from './use-cases/admin-deadlines.js';
import {
  adminCorrectTracks,
  adminFail,
  adminIntervene,
  adminSalesOrderAction,
  allowPartial,
  bulkIntervene,
  type SalesOrderAction,
} from './use-cases/admin-interventions.js';
import { orderDetail, searchOrders } from './use-cases/admin-orders.js';
import { stockHistoryFor } from './use-cases/admin-stock-history.js';
import {
  checkReservations,
  fixReservations,
  listStoresFor,
  putStore,
  putWarehouse,
  setOnHand,
  stockFor,
  storeFor,
  warehousesFor,
} from './use-cases/admin-stores.js';
import {
  createTokenFor,
  listTokensFor,
  revokeTokenFor,
  rotateTokenFor,
} from './use-cases/admin-tokens.js';
import { listCancellationRequests, listHolds } from './use-cases/admin-waiting.js';
import type { EngineDeps } from './use-cases/deps.js';
import { labelDocumentFor, labelsFor } from './use-cases/labels.js';
import { moveLines } from './use-cases/move-lines.js';
import {
  authenticateOperator,
  createOperator,
  deleteExpiredSessions,
  listOperators,
  login,
  logout,
  type OperatorPrincipal,
  revokeOperator,
  sessionMs,
  sessionOperator,
} from './use-cases/operator-accounts.js';
import {
  cancelReturnAsOperator,
  getReturnAsOperator,
  listReturnsAsOperator,
  openReturnAsOperator,
} from './use-cases/returns.js';
import { previewRouting } from './use-cases/routing-preview.js';

/**
 * The operator's side of the engine (docs/admin-api.md): what the admin API serves, for an
 * embedding app too. Every method takes the acting operator and checks its role and store scope
 * itself; every change is one transaction, recorded with the operator's name and request id.
 */
export function createAdminEngine(deps: EngineDeps) {
  type Op = OperatorPrincipal;
  return {
    // ── operators and sessions ──
    /** For the CLI: creates an operator and answers its secret, shown once. */
    createOperator: (spec: OperatorInput | Unverified) => createOperator(deps, spec),
    listOperators: () => listOperators(deps),
    revokeOperator: (name: string) => revokeOperator(deps, name),
    /** The same, for an unscoped admin acting through the API. */
    createOperatorAs: async (op: Op, spec: OperatorInput | Unverified) => {
      requireGlobalAdmin(op);
      return createOperator(deps, spec);
    },
    listOperatorsAs: async (op: Op) => {
      requireGlobalAdmin(op);
      return { operators: await listOperators(deps) };
    },
    revokeOperatorAs: async (op: Op, name: string) => {
      requireGlobalAdmin(op);
      return { operator: await revokeOperator(deps, name) };
    },
    authenticateOperator: (secret: string, requestId?: string | null) =>
      authenticateOperator(deps, secret, requestId ?? null),
    login: (
      credentials: Unverified | { name: string; secret: string },
      requestId?: string | null,
    ) => login(deps, credentials, requestId ?? null),
    sessionOperator: (session: string, requestId?: string | null) =>
      sessionOperator(deps, session, requestId ?? null),
    logout: (session: string) => logout(deps, session),
    /** How long a session lasts after its login, in whole seconds (the cookie's Max-Age). */
    sessionSeconds: Math.round(sessionMs(deps) / 1000),
    /** Deletes every session that has expired by now; answers how many (`serve` sweeps). */
    deleteExpiredSessions: () => deleteExpiredSessions(deps),

    // ── reading ──
    dashboard: (op: Op) => dashboard(deps, op),
    listStores: (op: Op) => listStoresFor(deps, op),
    getStore: (op: Op, store: string) => storeFor(deps, op, store),
    putStore: (op: Op, store: string, body: unknown) => putStore(deps, op, store, body),
    listWarehouses: (op: Op, store: string) => warehousesFor(deps, op, store),
    putWarehouse: (op: Op, store: string, code: string, body: unknown) =>
      putWarehouse(deps, op, store, code, body),
    listStock: (op: Op, store: string, query: unknown) => stockFor(deps, op, store, query),
    /** What intake would do with a sales order now, every line explained; writes nothing. */
    previewRouting: (op: Op, store: string, body: unknown) => previewRouting(deps, op, store, body),
    stockHistory: (op: Op, store: string, warehouse: string, sku: string, query: unknown) =>
      stockHistoryFor(deps, op, store, warehouse, sku, query),
    setOnHand: (op: Op, store: string, warehouse: string, sku: string, body: unknown) =>
      setOnHand(deps, op, store, warehouse, sku, body),
    listTokens: (op: Op, store: string) => listTokensFor(deps, op, store),
    createToken: (op: Op, store: string, body: unknown) => createTokenFor(deps, op, store, body),
    revokeToken: (op: Op, store: string, name: string) => revokeTokenFor(deps, op, store, name),
    rotateToken: (op: Op, store: string, name: string, body: unknown) =>
      rotateTokenFor(deps, op, store, name, body),
    searchOrders: (op: Op, store: string, query: unknown) => searchOrders(deps, op, store, query),
    order: (op: Op, store: string, number: string) => orderDetail(deps, op, store, number),
    /** Every label of the order, read from the database: printing one again buys nothing. */
    labels: (op: Op, store: string, number: string) => labelsFor(deps, op, store, number),
    /** One live label with its document, to view or download. */
    labelDocument: (op: Op, store: string, number: string, label: string) =>
      labelDocumentFor(deps, op, store, number, label),

    // ── interventions ──
    fail: (op: Op, store: string, number: string, body: unknown) =>
      adminFail(deps, op, store, number, body),
    intervene: (op: Op, store: string, number: string, action: BulkAction, body: unknown) =>
      adminIntervene(deps, op, store, number, action, body),
    allowPartial: (op: Op, store: string, number: string, body: unknown) =>
      allowPartial(deps, op, store, number, body),
    /** Changes the order's `fulfill_by`, with a reason (docs/deadlines.md). */
    changeFulfillBy: (op: Op, store: string, number: string, body: unknown) =>
      changeFulfillBy(deps, op, store, number, body),
    /** Changes the `fulfill_by` of every order a filter selects, with a reason. */
    bulkChangeFulfillBy: (op: Op, store: string, body: unknown) =>
      bulkChangeFulfillBy(deps, op, store, body),
    moveLines: (op: Op, store: string, number: string, body: unknown) =>
      moveLines(deps, op, store, number, body),
    correctTracks: (op: Op, store: string, number: string, body: unknown) =>
      adminCorrectTracks(deps, op, store, number, body),
    /** Holds (`hold`), releases or cancels a sales order, as a sales channel would. */
    salesOrderAction: (
      op: Op,
      store: string,
      salesOrderNumber: string,
      action: SalesOrderAction,
      body: unknown,
    ) => adminSalesOrderAction(deps, op, store, salesOrderNumber, action, body),
    bulk: (op: Op, store: string, action: BulkAction, body: unknown) =>
      bulkIntervene(deps, op, store, action, body),
    checkReservations: (op: Op, store: string) => checkReservations(deps, op, store),
    fixReservations: (op: Op, store: string, body: unknown) =>
      fixReservations(deps, op, store, body),

    // ── what waits outside the queues ──
    /** A page of the store's open holds, oldest first (`limit`, `offset`). */
    holds: (op: Op, store: string, query: unknown) => listHolds(deps, op, store, query),
    /** A page of the store's open cancellation requests, oldest first (`overdue` too). */
    cancellationRequests: (op: Op, store: string, query: unknown) =>
      listCancellationRequests(deps, op, store, query),

    // ── returns (docs/channel-guide.md, Returns) ──
    /** A page of the store's returns by id (`status`, `after`). */
    returns: (op: Op, store: string, query: unknown) =>
      listReturnsAsOperator(deps, op, store, query),
    getReturn: (op: Op, store: string, rma: string) => getReturnAsOperator(deps, op, store, rma),
    /** Opens a return as a channel would (the body is the `return` object). */
    openReturn: (op: Op, store: string, body: unknown) =>
      openReturnAsOperator(deps, op, store, body),
    /** Cancels a return before any receipt; again, a no-op. */
    cancelReturn: (op: Op, store: string, rma: string, body: unknown) =>
      cancelReturnAsOperator(deps, op, store, rma, body),
  };
}

export type AdminEngine = ReturnType<typeof createAdminEngine>;
