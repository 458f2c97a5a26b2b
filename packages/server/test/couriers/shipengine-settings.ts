import type {
  CarrierAccount,
  CourierSettings,
  CreateShipmentRequest,
  OrderResource,
} from '@fulfil/core';

/** The installation's ShipEngine account, at the fake (or Prism) at `baseUrl`. */
export const account = (baseUrl: string): CarrierAccount => ({
  type: 'shipengine',
  url: baseUrl,
  secret_env: 'SHIPENGINE_API_KEY',
});

/** A ShipEngine store's courier settings. */
export const settings: CourierSettings = {
  type: 'shipengine',
  account: 'shipengine',
  fail_skus: [],
  max_attempts: 3,
  delay_ms: 0,
  carrier_id: 'se-123',
  service_code: 'usps_priority_mail',
  warehouse_id: 'se-456',
  ship_from: {
    name: 'Fulfil HQ',
    phone: '512-555-0199',
    address_line1: '4009 Marathon Blvd',
    city_locality: 'Austin',
    state_province: 'TX',
    postal_code: '78756',
    country_code: 'US',
  },
};

/** One parcel's create request of order 100-1, shipped to Austin, TX. */
export function parcelRequest(qty = 1): CreateShipmentRequest {
  const order = {
    fulfillment_order_number: '100-1',
    shipping_address: {
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: 'ada@example.com',
      street: '1 Main St',
      city: 'Austin',
      postcode: '78756',
      region: 'TX',
      country_id: 'US',
      telephone: '512-555-0100',
      company: '',
      vat_id: '',
    },
  } as unknown as OrderResource;
  const items = [{ sku: 'SKU-1', qty }] as OrderResource['items'];
  return { reference: '100-1/shipment-1/1', order, parcel: { index: 1, count: 1, items } };
}
