import { useEffect, useState } from 'preact/hooks';

/**
 * A short word after a change that worked ("Stock of SKU-1 at WH-A set to 12"), read out by
 * screen readers, gone after a few seconds (Polaris' Toast). `toast()` may be called from
 * anywhere; the shell shows them. One at a time: a new one takes the place of the last, and a
 * toast belongs to the page it was shown on, so it is gone once the operator goes elsewhere.
 */

interface Shown {
  id: number;
  text: string;
  /** The page it belongs to: the fragment's path, without its query. */
  page: string;
}

const LIFETIME_MS = 6_000;
let shown: Shown | null = null;
let next = 1;
const listeners = new Set<(toast: Shown | null) => void>();

function publish(toast: Shown | null): void {
  shown = toast;
  for (const listener of listeners) listener(shown);
}

const currentPage = () => location.hash.replace(/\?.*$/, '');

export function toast(text: string): void {
  const id = next++;
  publish({ id, text, page: currentPage() });
  setTimeout(() => {
    if (shown?.id === id) publish(null);
  }, LIFETIME_MS);
}

/** Where toasts appear: one live region, always in the page, so each is announced. */
export function Toasts() {
  const [current, setCurrent] = useState(shown);
  useEffect(() => {
    listeners.add(setCurrent);
    // Another page: what was said of the last one no longer applies.
    const left = () => {
      if (shown && shown.page !== currentPage()) publish(null);
    };
    addEventListener('hashchange', left);
    return () => {
      listeners.delete(setCurrent);
      removeEventListener('hashchange', left);
    };
  }, []);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {current && (
        <p key={current.id} class="toast">
          {current.text}
        </p>
      )}
    </div>
  );
}
