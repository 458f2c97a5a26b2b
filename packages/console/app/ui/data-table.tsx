import type { ComponentChildren } from 'preact';

/** One column: its heading, and what each row shows in it. */
export interface Column<Row> {
  title: string;
  cell: (row: Row) => ComponentChildren;
  /** Numbers: right-aligned, tabular. */
  numeric?: boolean;
  /** The row's name (its number, its code): first, strong, and unlabeled on a phone. */
  primary?: boolean;
}

/**
 * A list an operator scans (Polaris' IndexTable): a table from the width of a tablet, and on a
 * phone each row a card with the same fields, each labeled by its column, so that nothing
 * scrolls sideways. With no row, `empty` says what would be here. Columns a role does not see
 * are passed as `false`.
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  empty,
  caption,
  fixed = false,
}: {
  label: string;
  columns: readonly (Column<Row> | false)[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  empty?: ComponentChildren;
  caption?: ComponentChildren;
  /** Column widths that do not follow the content, so that stacked tables line up. */
  fixed?: boolean;
}) {
  if (rows.length === 0 && empty) return <>{empty}</>;
  const shown = columns.filter((column): column is Column<Row> => column !== false);
  const cellClass = (column: Column<Row>) =>
    [column.numeric && 'num', column.primary && 'primary'].filter(Boolean).join(' ') || undefined;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that may scroll must be reachable by keyboard
    <section class="table-frame" aria-label={label} tabIndex={0}>
      <table class={fixed ? 'data-table data-table--fixed' : 'data-table'}>
        {caption && <caption>{caption}</caption>}
        <thead>
          <tr>
            {shown.map((column) => (
              <th key={column.title} scope="col" class={cellClass(column)}>
                {column.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {shown.map((column) => (
                <td key={column.title} class={cellClass(column)} data-label={column.title}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
