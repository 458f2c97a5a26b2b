import type { ReturnCredit, ReturnLine, ReturnReceipt, ReturnRecord } from './return-record.js';
import type { ReturnStatus } from './return-status.js';

/**
 * A return as the API shows it: in its queues, in the answers of its actions and in the Sales
 * order view. Amounts in API units, not ten-thousandths.
 */
export interface ReturnResource
  extends Pick<
    ReturnRecord,
    'id' | 'rma_number' | 'sales_order_number' | 'warehouse_code' | 'created_at' | 'updated_at'
  > {
  status: ReturnStatus;
  /** `price`: the unit price including tax, what a credit pays back per unit. */
  items: (Omit<ReturnLine, 'unit_price_incl_tax'> & { price: number })[];
  receipts: ReturnReceipt[];
  credits: (Omit<ReturnCredit, 'amount_incl_tax' | 'shipping_refund_incl_tax'> & {
    amount_incl_tax: number;
    shipping_refund_incl_tax: number;
  })[];
}
