/**
 * The final table of a run: one row per scenario, what Fulfil did, the floor measured in the
 * same run, their ratio, and the target. Targets are printed, never asserted.
 */

export interface SummaryRow {
  scenario: string;
  fulfil: string;
  floor: string;
  ratio: string;
  target: string;
}

const rows: SummaryRow[] = [];

export function addRow(row: SummaryRow): void {
  rows.push(row);
}

/** `0.42` (two decimals, or two significant digits below 0.01: `0.0048`); `—` when there is nothing to divide. */
export function ratioOf(ours: number, floor: number): string {
  const ratio = ours / floor;
  if (!(Number.isFinite(ratio) && floor > 0)) return '—';
  return ratio < 0.01 && ratio > 0 ? ratio.toPrecision(2) : ratio.toFixed(2);
}

export function printSummary(print: (line: string) => void = console.log): void {
  const header: SummaryRow = {
    scenario: 'scenario',
    fulfil: 'Fulfil',
    floor: 'floor',
    ratio: 'ratio',
    target: 'target',
  };
  const keys = Object.keys(header) as (keyof SummaryRow)[];
  const line = (row: SummaryRow) => `| ${keys.map((key) => row[key]).join(' | ')} |`;
  print('');
  print(line(header));
  print(`|${keys.map(() => '---').join('|')}|`);
  for (const row of rows) print(line(row));
}
