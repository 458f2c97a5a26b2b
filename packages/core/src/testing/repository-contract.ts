import { afterEach, beforeEach, describe } from 'vitest';
import type { Repository } from '../ports/repository.js';
import { adminContract } from './contract/admin.js';
import { auditContract } from './contract/audit.js';
import { changeFeedContract } from './contract/change-feed.js';
import { changeStampContract } from './contract/change-stamp.js';
import { courierDueContract } from './contract/courier-due.js';
import { feedsContract } from './contract/feeds.js';
import {
  contractHarness,
  type RepositoryFactory,
  type RepositoryUnderTest,
} from './contract/harness.js';
import { keptTokensContract } from './contract/kept-tokens.js';
import { labelsContract } from './contract/labels.js';
import { ordersContract } from './contract/orders.js';
import { pageVersionsContract } from './contract/page-versions.js';
import { queuesContract } from './contract/queues.js';
import { returnsContract } from './contract/returns.js';
import { salesOrdersContract } from './contract/sales-orders.js';
import { sequencesContract } from './contract/sequences.js';
import { shipmentTracksContract } from './contract/shipment-tracks.js';
import { stockContract } from './contract/stock.js';
import { stockAdjustmentsContract } from './contract/stock-adjustments.js';
import { stockHistoryContract } from './contract/stock-history.js';
import { storesContract } from './contract/stores.js';
import { tokensContract } from './contract/tokens.js';
import { transactionContract } from './contract/transaction.js';
import { waitingContract } from './contract/waiting.js';
import { warehousesContract } from './contract/warehouses.js';

export type { RepositoryFactory, RepositoryUnderTest } from './contract/harness.js';

/**
 * The storage contract of `Repository`, as vitest tests. Every adapter runs it with a factory
 * that returns a fresh, empty database each time:
 *
 * ```ts
 * runRepositoryContract('sqlite :memory:', async () => ({
 *   repository: await openSqliteRepository({ filename: ':memory:' }),
 * }));
 * ```
 *
 * One or more tests per guarantee written in the port's JSDoc. Concurrency tests start their
 * transactions together; an adapter whose transactions take turns anyway passes them trivially.
 */
export function runRepositoryContract(name: string, factory: RepositoryFactory): void {
  describe(`${name}: repository contract`, () => {
    let current: RepositoryUnderTest | undefined;
    let repository: Repository;

    beforeEach(async () => {
      current = await factory();
      repository = current.repository;
    });

    afterEach(async () => {
      const done = current;
      current = undefined;
      if (!done) return;
      try {
        await done.repository.close();
      } finally {
        await done.cleanup?.();
      }
    });

    const h = contractHarness(
      () => repository,
      () => current?.openAnother,
    );
    transactionContract(h);
    changeStampContract(h);
    storesContract(h);
    warehousesContract(h);
    stockContract(h);
    stockAdjustmentsContract(h);
    stockHistoryContract(h);
    tokensContract(h);
    keptTokensContract(h);
    ordersContract(h);
    shipmentTracksContract(h);
    queuesContract(h);
    changeFeedContract(h);
    pageVersionsContract(h);
    feedsContract(h);
    salesOrdersContract(h);
    returnsContract(h);
    sequencesContract(h);
    courierDueContract(h);
    labelsContract(h);
    auditContract(h);
    adminContract(h);
    waitingContract(h);
  });
}
