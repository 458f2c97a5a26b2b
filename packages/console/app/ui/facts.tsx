import type { ComponentChildren } from 'preact';

/** Named values side by side (a shipment's date, an order's amounts): a description list. */
export function Facts({
  rows,
  class: extra,
}: {
  rows: readonly (readonly [string, ComponentChildren] | false | null | undefined)[];
  class?: string;
}) {
  return (
    <dl class={`facts${extra ? ` ${extra}` : ''}`}>
      {rows
        .filter((row): row is readonly [string, ComponentChildren] => Boolean(row))
        .map(([name, value]) => (
          <div key={name} class="facts__row">
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}
