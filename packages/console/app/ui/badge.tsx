import type { ComponentChildren } from 'preact';
import type { Tone } from './words.js';

/**
 * A state at a glance: words on a tone (Polaris' Badge, Medusa's StatusBadge). `title` keeps the
 * API's identifier for those who integrate.
 */
export function Badge({
  tone = 'neutral',
  title,
  children,
}: {
  tone?: Tone;
  title?: string;
  children: ComponentChildren;
}) {
  return (
    <span class={`badge tone--${tone}`} title={title}>
      {children}
    </span>
  );
}
