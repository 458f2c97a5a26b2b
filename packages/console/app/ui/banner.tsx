import type { ComponentChildren } from 'preact';
import { messageOf } from './load.js';
import type { Tone } from './words.js';

/**
 * A message that stays until its cause goes (Polaris' Banner): critical and warning ones are
 * announced at once.
 */
export function Banner({
  tone = 'info',
  title,
  children,
}: {
  tone?: Tone;
  title?: ComponentChildren;
  children?: ComponentChildren;
}) {
  const urgent = tone === 'critical' || tone === 'warning';
  return (
    <div class={`banner tone--${tone}`} role={urgent ? 'alert' : 'status'}>
      {title && <p class="banner__title">{title}</p>}
      {children}
    </div>
  );
}

/**
 * What a refused request said: the error body's message, its `%placeholders` already filled
 * from its `parameters` (api.ts); nothing when there is no error.
 */
export function ErrorBanner({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  return (
    <Banner tone="critical">
      <p>{typeof error === 'string' ? error : messageOf(error)}</p>
    </Banner>
  );
}
