import { describe, expect, it } from 'vitest';
import { main } from './embed.js';

describe('examples/embed.ts', () => {
  it('walks one order from intake to invoiced', async () => {
    const lines: string[] = [];
    const history = await main((line) => lines.push(line));
    expect(history.order.status).toBe('invoiced');
    expect(history.order.items.every((item) => item.status === 'invoiced')).toBe(true);
    expect(history.invoices.map((invoice) => invoice.invoice_number)).toEqual(['FT-2025-000042']);
    expect(history.shipments).toHaveLength(1);
    expect(history.audit.map((event) => event.action)).toEqual([
      'intake',
      'accept',
      'allocate',
      'ship',
      'invoice',
    ]);
    expect(lines[0]).toBe('intake: 100000042-1 at WH-MILAN');
  });
});
