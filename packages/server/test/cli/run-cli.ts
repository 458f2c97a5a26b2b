import { EventEmitter } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

/** Collects what is written to it. */
export class Capture {
  text = '';
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
  /** The output parsed as JSON. */
  json<T = unknown>(): T {
    return JSON.parse(this.text) as T;
  }
}

export interface CliRun {
  code: number;
  stdout: Capture;
  stderr: Capture;
}

/** Runs `fulfil <argv>` in-process, with its own streams; env and cwd as given. */
export async function runCli(argv: string[], io: Partial<CliIo> = {}): Promise<CliRun> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await main(argv, {
    stdout,
    stderr,
    env: {},
    signals: new EventEmitter(),
    exit: () => {
      throw new Error('the CLI tried to exit the process');
    },
    ...io,
  });
  return { code, stdout, stderr };
}

/** A temporary directory, removed by the returned function. */
export async function tempDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'fulfil-cli-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export async function writeJson(path: string, value: unknown): Promise<string> {
  await writeFile(path, JSON.stringify(value));
  return path;
}

const address = {
  firstname: 'Ada',
  lastname: 'Lovelace',
  email: 'ada@example.com',
  street: 'Via Roma 1',
  city: 'Milano',
  postcode: '20121',
  region: 'MI',
  country_id: 'IT',
  telephone: '+39 02 000000',
  company: '',
  vat_id: '',
};

/** A valid sales order (DECISIONS §9 shape) pinned to WH-A. */
export function salesOrder(number: string, sku = 'SKU-1') {
  return {
    sales_order_id: Number(number),
    sales_order_number: number,
    warehouse_code: 'WH-A',
    customer_firstname: 'Ada',
    customer_lastname: 'Lovelace',
    customer_email: 'ada@example.com',
    customer_is_guest: false,
    shipping_amount: 5,
    shipping_amount_excl_tax: 4.1,
    shipping_tax_amount: 0.9,
    shipping_tax_rate: 22,
    grand_total: 25,
    grand_total_excl_tax: 20.5,
    tax_amount: 4.5,
    payment: { method_code: 'card', method_name: 'Card' },
    shipping: { method_code: 'std', method_name: 'Standard', internal_method_code: 'std' },
    billing_address: address,
    shipping_address: address,
    items: [
      {
        sku,
        name: 'Widget',
        qty: 2,
        price: 10,
        price_excl_tax: 8.2,
        tax_amount: 1.8,
        tax_rate: 22,
        total_price: 20,
        total_price_excl_tax: 16.4,
        total_tax_amount: 3.6,
      },
    ],
  };
}

export const PARTNER_SECRET = 'partner-a-secret-0123456789abcdef0123456789';
export const ERP_SECRET = 'erp-secret-0123456789abcdef0123456789abcdef';

/** A small seed: one store, one partner warehouse, two tokens, one order. */
export function smallSeed() {
  return {
    stores: [
      {
        code: 'default',
        settings: { partial_items: false, reroute: true },
        warehouses: [
          { code: 'WH-A', name: 'Partner A', fulfilled_by: 'partner', priority: 10 },
          { code: 'WH-B', name: 'Partner B', fulfilled_by: 'partner', priority: 5 },
        ],
        stock: [
          { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 10 },
          { warehouse_code: 'WH-B', sku: 'SKU-1', qty: 3 },
        ],
        tokens: [
          { name: 'partner-a', token: PARTNER_SECRET, acl: 'partner', warehouses: ['WH-A'] },
          { name: 'erp', token: ERP_SECRET, acl: 'erp' },
        ],
        orders: [salesOrder('100000001')],
      },
    ],
  };
}
