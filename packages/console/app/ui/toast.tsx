import { useEffect, useState } from 'preact/hooks';

/**
 * A short word after a change that worked ("Stock of SKU-1 at WH-A set to 12"), read out by
 * screen readers, gone after a few seconds (Polaris' Toast). `toast()` may be called from
 * anywhere; the shell shows them.
 */

interface Shown {
  id: number;
  text: string;
}

const LIFETIME_MS = 6_000;
let shown: Shown[] = [];
let next = 1;
const listeners = new Set<(toasts: Shown[]) => void>();

function publish(toasts: Shown[]): void {
  shown = toasts;
  for (const listener of listeners) listener(shown);
}

export function toast(text: string): void {
  const id = next++;
  publish([...shown, { id, text }]);
  setTimeout(() => publish(shown.filter((toast) => toast.id !== id)), LIFETIME_MS);
}

/** Where toasts appear: one live region, always in the page, so each is announced. */
export function Toasts() {
  const [toasts, setToasts] = useState(shown);
  useEffect(() => {
    listeners.add(setToasts);
    return () => {
      listeners.delete(setToasts);
    };
  }, []);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <p key={toast.id} class="toast">
          {toast.text}
        </p>
      ))}
    </div>
  );
}
