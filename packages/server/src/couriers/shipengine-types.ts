/**
 * The parts of ShipEngine's API the adapter uses, by hand from the vendor's OpenAPI document
 * (npm `shipengine-openapi`); test/couriers/shipengine.test.ts validates request bodies and the
 * fake's answers against that document's schemas, and prism.test.ts runs the calls through Prism
 * against it, so a drift shows there.
 */

export interface ShipEngineAddress {
  name: string;
  phone: string;
  company_name: string | null;
  address_line1: string;
  city_locality: string;
  state_province: string;
  postal_code: string;
  country_code: string;
  address_residential_indicator: 'unknown' | 'yes' | 'no';
}

export interface ShipEngineCreateLabelRequest {
  shipment: {
    external_shipment_id: string;
    carrier_id: string;
    service_code: string;
    warehouse_id?: string;
    ship_to: ShipEngineAddress;
    ship_from?: Omit<ShipEngineAddress, 'company_name'> & { company_name?: string };
    return_to?: Omit<ShipEngineAddress, 'company_name'> & { company_name?: string };
    packages: { weight: { value: number; unit: 'pound' | 'ounce' | 'gram' | 'kilogram' } }[];
    ship_date: string;
    confirmation: 'none';
    customs: null;
    advanced_options: Record<string, never>;
    insurance_provider: 'none';
  };
  label_format: 'pdf' | 'png' | 'zpl';
  label_download_type: 'url' | 'inline';
}

export interface ShipEngineLabel {
  label_id: string;
  status: string;
  shipment_id: string;
  tracking_number: string;
  voided: boolean;
  label_format?: string;
  /** The carrier of the label in ShipEngine's words: `ups`, `fedex`, `stamps_com` (USPS), … */
  carrier_code?: string;
  label_download?: { href?: string; pdf?: string; png?: string; zpl?: string };
}

export interface ShipEngineVoidResult {
  approved: boolean;
  message: string;
}

export interface ShipEngineTrackingInformation {
  tracking_number: string;
  status_code: string;
  events: { occurred_at: string; description?: string; event_code?: string }[];
}

export interface ShipEngineError {
  request_id: string;
  errors: { error_source?: string; error_type?: string; error_code: string; message: string }[];
}
