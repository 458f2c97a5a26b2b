/**
 * One example per request and resource component of the OpenAPI document: the orders of
 * docs/api.md. A test validates each against its component's schema, and each request example
 * against the schema the engine validates with.
 */

const ADDRESS = {
  firstname: 'Giulia',
  lastname: 'Rossi',
  email: 'giulia.rossi@example.it',
  street: 'Via Torino 12',
  city: 'Milano',
  postcode: '20123',
  region: 'MI',
  country_id: 'IT',
  telephone: '+39 02 1234567',
  company: '',
  vat_id: '',
};

const ITEM = {
  id: 1,
  status: 'pending_accept',
  name: 'Moka pot, 3 cups',
  sku: 'MOKA-3',
  qty: 1,
  warehouse_code: 'WH-MILAN',
};

const STOCK_ITEM = { warehouse_code: 'WH-MILAN', sku: 'MOKA-3', qty: 40 };
const RECEIVED = { warehouse_code: 'WH-MILAN', sku: 'MOKA-3', delta: 12, reason: 'received' };
const DAMAGED = { warehouse_code: 'WH-MILAN', sku: 'CUPS-ESP-6', delta: -1, reason: 'damaged' };

/** A sales order as a channel hands it in (docs/channel-guide.md). */
const SALES_ORDER_ITEM = {
  sku: 'MOKA-3',
  name: 'Moka pot, 3 cups',
  qty: 1,
  price: 29.9,
  price_excl_tax: 24.51,
  tax_amount: 5.39,
  tax_rate: 22,
  total_price: 29.9,
  total_price_excl_tax: 24.51,
  total_tax_amount: 5.39,
};

const SALES_ORDER_INPUT = {
  sales_order_id: 5001,
  sales_order_number: '100005001',
  customer_firstname: 'Giulia',
  customer_lastname: 'Rossi',
  customer_email: 'giulia.rossi@example.it',
  customer_is_guest: false,
  shipping_amount: 6.9,
  shipping_amount_excl_tax: 5.66,
  shipping_tax_amount: 1.24,
  shipping_tax_rate: 22,
  grand_total: 36.8,
  grand_total_excl_tax: 30.17,
  tax_amount: 6.63,
  cod_amount: 0,
  package_value: 29.9,
  payment: { method_code: 'card', method_name: 'Credit or debit card' },
  shipping: {
    method_code: 'standard',
    method_name: 'Standard delivery (2-4 days)',
    internal_method_code: 'brt_standard',
  },
  billing_address: ADDRESS,
  shipping_address: ADDRESS,
  items: [SALES_ORDER_ITEM],
};

const SALES_ORDER_TRACK = {
  carrier_code: 'ups',
  title: 'UPS',
  track_number: '1Z999AA10123456784',
  tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
};

const SALES_ORDER_SHIPMENT = {
  id: 1,
  fulfillment_order_number: '100005001-1',
  created_at: '2026-11-24 16:20:05',
  items: [{ item_id: 1, sku: 'MOKA-3', name: 'Moka pot, 3 cups', qty: 1 }],
  tracks: [SALES_ORDER_TRACK],
};

const SALES_ORDER = {
  id: 1,
  sales_order_number: '100005001',
  sales_order_id: 5001,
  status: 'shipped',
  created_at: '2026-11-23 11:09:41',
  updated_at: '2026-11-24 16:20:05',
  holds: [],
  fulfillment_orders: [
    {
      id: 1,
      fulfillment_order_number: '100005001-1',
      sales_order_id: 5001,
      sales_order_number: '100005001',
      warehouse_code: 'WH-MILAN',
      customer_firstname: 'Giulia',
      customer_lastname: 'Rossi',
      customer_email: 'giulia.rossi@example.it',
      customer_is_guest: false,
      shipping_amount: 6.9,
      grand_total: 36.8,
      package_value: 29.9,
      status: 'pending_invoice',
      allocated_at: '2026-11-23 15:02:11',
      shipped_at: '2026-11-24 16:20:05',
      created_at: '2026-11-23 11:09:41',
      updated_at: '2026-11-24 16:20:05',
      payment: SALES_ORDER_INPUT.payment,
      shipping: SALES_ORDER_INPUT.shipping,
      billing_address: ADDRESS,
      shipping_address: ADDRESS,
      items: [{ ...ITEM, status: 'pending_invoice', price: 29.9, total_price: 29.9 }],
    },
  ],
  shipments: [SALES_ORDER_SHIPMENT],
  invoices: [],
  cancellation_requests: [],
  returns: [],
};

/** A return of the sales order above, half received (docs/channel-guide.md, Returns). */
const RETURN = {
  id: 1,
  rma_number: 'RMA-2026-0042',
  sales_order_number: '100005001',
  warehouse_code: 'WH-MILAN',
  status: 'pending_credit',
  created_at: '2026-11-27 10:12:00',
  updated_at: '2026-11-28 08:40:31',
  items: [
    {
      item_id: 1,
      fulfillment_order_number: '100005001-1',
      sku: 'MOKA-3',
      name: 'Moka pot, 3 cups',
      qty: 1,
      reason: 'damaged',
      price: 29.9,
      qty_restocked: 0,
      qty_quarantined: 1,
      qty_disposed: 0,
      qty_missing: 0,
      qty_credited: 0,
    },
  ],
  receipts: [
    {
      receipt_number: 'RCV-7781',
      created_at: '2026-11-28 08:40:31',
      items: [
        { item_id: 1, qty_restocked: 0, qty_quarantined: 1, qty_disposed: 0, qty_missing: 0 },
      ],
    },
  ],
  credits: [],
};

export const EXAMPLES: Readonly<Record<string, unknown>> = {
  Warehouse: { name: 'Milan 3PL', code: 'WH-MILAN', active: true },
  StockItem: STOCK_ITEM,
  StockItemInput: STOCK_ITEM,
  StockAdjustment: {
    adjustment_number: 'ADJ-2026-0412',
    created_at: '2026-11-28 08:40:31',
    items: [
      { ...RECEIVED, on_hand: 52 },
      { ...DAMAGED, on_hand: 7 },
    ],
  },
  Address: ADDRESS,
  Payment: { method_code: 'card', method_name: 'Credit or debit card' },
  Shipping: {
    method_code: 'standard',
    method_name: 'Standard delivery (2-4 days)',
    internal_method_code: 'brt_standard',
  },
  TrackInput: { carrier_code: 'brt', title: 'BRT', track_number: 'BRT123456' },
  FulfillmentOrderItem: ITEM,
  FulfillmentOrder: {
    id: 1,
    fulfillment_order_number: '100005001-1',
    sales_order_id: 5001,
    sales_order_number: '100005001',
    warehouse_code: 'WH-MILAN',
    customer_firstname: 'Giulia',
    customer_lastname: 'Rossi',
    customer_email: 'giulia.rossi@example.it',
    customer_is_guest: false,
    status: 'pending_accept',
    created_at: '2026-11-23 11:09:41',
    updated_at: '2026-11-23 11:09:41',
    payment: { method_code: 'card', method_name: 'Credit or debit card' },
    shipping: {
      method_code: 'standard',
      method_name: 'Standard delivery (2-4 days)',
      internal_method_code: 'brt_standard',
    },
    billing_address: ADDRESS,
    shipping_address: ADDRESS,
    items: [ITEM, { ...ITEM, id: 2, name: 'Espresso cups, set of 6', sku: 'CUPS-ESP-6' }],
  },
  ErrorParameter: { fieldName: 'page', fieldValue: '0' },
  ErrorBody: {
    message: 'The access token is not allowed to use %resources.',
    detail:
      'The access token is not allowed to use Fulfil_FulfillmentOrder::api_pending_allocation.',
    code: 1403,
    parameters: [{ resources: 'Fulfil_FulfillmentOrder::api_pending_allocation' }],
    errors: [
      {
        message: 'The access token is not allowed to use %resources.',
        detail:
          'The access token is not allowed to use Fulfil_FulfillmentOrder::api_pending_allocation.',
        parameters: [{ resources: 'Fulfil_FulfillmentOrder::api_pending_allocation' }],
      },
    ],
  },
  StockItemsRequest: { stock_items: [STOCK_ITEM] },
  StockAdjustmentRequest: {
    adjustment: { adjustment_number: 'ADJ-2026-0412', items: [RECEIVED, DAMAGED] },
  },
  AcceptRequest: {
    order: {
      order_id: '100005001-1',
      items: [
        { item_id: 1, qty: 1 },
        { item_id: 2, qty: 0 },
      ],
    },
  },
  RejectRequest: { order: { order_id: '100005003-1', items: [{ item_id: 5 }] } },
  AllocateRequest: {
    allocation: { order_id: '100005001-1', items: [{ item_id: 1 }, { item_id: 2 }] },
  },
  ShipRequest: {
    shipment: {
      order_id: '100005001-1',
      items: [{ item_id: 1 }],
      tracks: [{ carrier_code: 'brt', title: 'BRT', track_number: 'BRT123456' }],
    },
  },
  InvoiceRequest: {
    invoice: {
      order_id: '100005001-1',
      items: [{ item_id: 1 }],
      invoice_number: 'INV-2026-0001',
      shipping_amount_incl_tax: 6.9,
    },
  },
  SalesOrderItem: SALES_ORDER_ITEM,
  SalesOrderInput: SALES_ORDER_INPUT,
  SalesOrderTrack: SALES_ORDER_TRACK,
  SalesOrderShipment: SALES_ORDER_SHIPMENT,
  SalesOrderInvoice: {
    fulfillment_order_number: '100005001-1',
    invoice_number: 'INV-2026-0001',
    item_ids: [1],
    shipping_amount_incl_tax: 6.9,
    created_at: '2026-11-25 09:00:00',
  },
  SalesOrder: SALES_ORDER,
  SalesOrderBatchEntry: {
    sales_order_number: '100005002',
    status: 409,
    error: {
      message: 'Sales order %fieldValue was already taken in with other content; see errors.',
      detail: 'Sales order 100005002 was already taken in with other content; see errors.',
      code: 1409,
      parameters: [{ fieldName: 'sales_orders[1].sales_order_number', fieldValue: '100005002' }],
      errors: [
        {
          message: 'Field "%fieldName" differs from the sales order taken in under this number.',
          detail:
            'Field "sales_orders[1].items[0].qty" differs from the sales order taken in under this number.',
          parameters: [{ fieldName: 'sales_orders[1].items[0].qty' }],
        },
      ],
    },
  },
  SalesOrderRequest: { sales_order: SALES_ORDER_INPUT },
  Return: RETURN,
  ReturnRequest: {
    return: {
      rma_number: 'RMA-2026-0042',
      sales_order_number: '100005001',
      items: [{ fulfillment_order_number: '100005001-1', item_id: 1, qty: 1, reason: 'damaged' }],
    },
  },
  ReceiptRequest: {
    receipt: {
      rma_number: 'RMA-2026-0042',
      receipt_number: 'RCV-7781',
      items: [{ item_id: 1, qty_quarantined: 1 }],
    },
  },
  CreditRequest: {
    credit: {
      rma_number: 'RMA-2026-0042',
      credit_note_number: 'CN-2026-0007',
      items: [{ item_id: 1 }],
      shipping_refund_incl_tax: 0,
      amount_incl_tax: 29.9,
    },
  },
  CancellationRequestDetail: {
    id: 1,
    requested_at: '2026-11-23 12:30:00',
    reason: 'customer',
    items: [{ item_id: 1, sku: 'MUG-CER-350', qty: 1 }],
  },
  SalesOrderHold: {
    handle: 'payment-5001',
    reason: 'awaiting_payment',
    note: 'Bank transfer not received yet',
    status: 'released',
    placed_by: 'storefront',
    placed_at: '2026-11-23 11:10:02',
    released_by: 'storefront',
    released_at: '2026-11-23 14:45:10',
    fulfillment_order_numbers: ['100005001-1'],
  },
  SalesOrderCancellation: {
    fulfillment_order_number: '100005001-1',
    id: 1,
    reason: 'customer',
    status: 'rejected',
    items: [{ item_id: 1, sku: 'MUG-CER-350', qty: 1 }],
    requested_by: 'storefront',
    requested_at: '2026-11-24 15:58:00',
    message: 'shipped',
    answered_at: '2026-11-24 16:20:05',
  },
  HoldAnswer: {
    handle: 'fraud-check-5002',
    held: ['100005002-1'],
    not_held: [{ fulfillment_order_number: '100005002-2', why: 'pending_shipment' }],
    sales_order: { ...SALES_ORDER, sales_order_number: '100005002', status: 'on_hold' },
  },
  HoldRequest: {
    hold: {
      sales_order_number: '100005002',
      handle: 'fraud-check-5002',
      reason: 'high_risk_of_fraud',
      note: 'Risk score 91: billing and shipping countries differ',
    },
  },
  ReleaseRequest: { release: { sales_order_number: '100005002', handle: 'fraud-check-5002' } },
  CancelSalesOrderRequest: {
    cancellation: {
      sales_order_number: '100005001',
      reason: 'customer',
      items: [{ fulfillment_order_number: '100005001-1', item_id: 1 }],
    },
  },
  AcceptCancellationRequest: { cancellation: { order_id: '100005001-1' } },
  RejectCancellationRequest: {
    cancellation: { order_id: '100005001-1', message: 'Already packed and handed to the carrier' },
  },
  SalesOrdersRequest: {
    sales_orders: [SALES_ORDER_INPUT, { ...SALES_ORDER_INPUT, sales_order_number: '100005002' }],
  },
};
