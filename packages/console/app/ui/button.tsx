import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

export type ButtonVariant = 'primary' | 'secondary' | 'destructive' | 'plain';

/**
 * A button in one of four variants: `primary` (the page's one main action), `secondary`,
 * `destructive` (red: cancels, fails, revokes; always behind a confirmation), `plain` (a quiet
 * link-like action). While its action runs (`busy`, or the promise `onClick` returns) it shows
 * so and takes no second click: a double click acts once.
 */
export function Button({
  variant = 'secondary',
  type = 'button',
  busy = false,
  disabled = false,
  label,
  onClick,
  children,
}: {
  variant?: ButtonVariant;
  type?: 'button' | 'submit';
  busy?: boolean;
  disabled?: boolean;
  /** The accessible name, when the visible text needs its object (`Revoke erp`). */
  label?: string;
  onClick?: (event: MouseEvent) => unknown;
  children: ComponentChildren;
}) {
  const running = useRef(false);
  const mounted = useRef(true);
  const [working, setWorking] = useState(false);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const shown = busy || working;
  const click = async (event: MouseEvent) => {
    if (running.current || shown) {
      event.preventDefault();
      return;
    }
    const result = onClick?.(event);
    if (!(result instanceof Promise)) return;
    running.current = true;
    setWorking(true);
    try {
      await result;
    } finally {
      running.current = false;
      if (mounted.current) setWorking(false);
    }
  };
  return (
    <button
      type={type}
      class={`button button--${variant}`}
      disabled={disabled}
      aria-disabled={shown || undefined}
      aria-busy={shown || undefined}
      aria-label={label}
      onClick={click}
    >
      {children}
    </button>
  );
}
