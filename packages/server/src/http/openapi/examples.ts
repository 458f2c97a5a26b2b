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

export const EXAMPLES: Readonly<Record<string, unknown>> = {
  Warehouse: { name: 'Milan 3PL', code: 'WH-MILAN', active: true },
  StockItem: STOCK_ITEM,
  StockItemInput: STOCK_ITEM,
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
    code: 1403,
    parameters: [{ resources: 'Fulfil_FulfillmentOrder::api_pending_allocation' }],
    errors: [
      {
        message: 'The access token is not allowed to use %resources.',
        parameters: [{ resources: 'Fulfil_FulfillmentOrder::api_pending_allocation' }],
      },
    ],
  },
  StockItemsRequest: { stock_items: [STOCK_ITEM] },
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
};
