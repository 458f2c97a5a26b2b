import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

/**
 * One subject with its title (Polaris' Card, Medusa's Container): the order's items, a
 * shipment, the customer. `actions` sit at the title's end; `flush` lets a table reach the
 * card's edges. A card of the side column is a card like any other: holds, cancellation
 * requests and returns take their place there the same way.
 */
export function Card({
  title,
  badge,
  actions,
  flush = false,
  label,
  children,
}: {
  title?: ComponentChildren;
  badge?: ComponentChildren;
  actions?: ComponentChildren;
  flush?: boolean;
  /** The region's name when the title is not text alone. */
  label?: string;
  children: ComponentChildren;
}) {
  const id = useId();
  return (
    <section
      class={`card${flush ? ' card--flush' : ''}`}
      aria-labelledby={title && !label ? id : undefined}
      aria-label={label}
    >
      {(title || actions) && (
        <header class="card__header">
          <div class="card__title">
            {title && <h2 id={id}>{title}</h2>}
            {badge}
          </div>
          {actions && <div class="button-group">{actions}</div>}
        </header>
      )}
      <div class="card__body">{children}</div>
    </section>
  );
}
