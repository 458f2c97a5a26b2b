import { type ComponentChildren, cloneElement, type VNode } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.js';

/** What a page loaded: the value, or the error, and a way to load it again after an action. */
export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  reload: () => void;
}

/** Loads on mount and whenever `key` changes; never from a cache (the API answers no-store). */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setState({ data }),
      (error: unknown) => current && setState({ error: messageOf(error) }),
    );
    return () => {
      current = false;
    };
  }, [key, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { data: state.data, error: state.error, reload };
}

export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** Runs an action once at a time, keeping its error to show; resolves to its value or undefined. */
export function useAction(): {
  busy: boolean;
  error: string | undefined;
  run: <T>(action: () => Promise<T>) => Promise<T | undefined>;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = useCallback(async <T,>(action: () => Promise<T>) => {
    setBusy(true);
    setError(undefined);
    try {
      return await action();
    } catch (caught) {
      setError(messageOf(caught));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run };
}

/** The page's one heading; it takes the focus when the page opens, so a screen reader says where. */
export function PageTitle({ children }: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}

export function ErrorText({ error }: { error: string | undefined }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}

export function Loading({ loaded }: { loaded: Loaded<unknown> }) {
  if (loaded.error) return <ErrorText error={loaded.error} />;
  return loaded.data === undefined ? <p aria-live="polite">Loading…</p> : null;
}

/** A table that scrolls sideways on a narrow screen; focusable so the keyboard can scroll it. */
export function Scroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <section class="scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}

/**
 * A table with a header row of column names (false: a column this role does not see) in a
 * region that scrolls sideways on a narrow screen; the rows are the children.
 */
export function Table({
  label,
  caption,
  head,
  numeric = [],
  children,
}: {
  label: string;
  caption?: ComponentChildren;
  head: readonly (string | false)[];
  numeric?: readonly string[];
  children: ComponentChildren;
}) {
  return (
    <Scroll label={label}>
      <table>
        {caption && <caption>{caption}</caption>}
        <thead>
          <tr>
            {head
              .filter((name): name is string => name !== false)
              .map((name) => (
                <th key={name} scope="col" class={numeric.includes(name) ? 'num' : undefined}>
                  {name}
                </th>
              ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </Scroll>
  );
}

/** `2026-01-01 10:00:00` (UTC, as the API gives it) and how long ago that was. */
export function age(at: string | null | undefined): string {
  if (!at) return '—';
  const then = Date.parse(`${at.replace(' ', 'T')}Z`);
  if (Number.isNaN(then)) return at;
  const minutes = Math.max(0, Math.round((Date.now() - then) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} d`;
}

export function count(total: { count: number; capped: boolean }): string {
  return total.capped ? `${total.count.toLocaleString('en')}+` : total.count.toLocaleString('en');
}

/** Whether the session's role includes `role` (viewer < operator < admin). */
const RANK: Record<string, number> = { viewer: 0, operator: 1, admin: 2 };

export function may(have: string, need: 'viewer' | 'operator' | 'admin'): boolean {
  return (RANK[have] ?? -1) >= (RANK[need] ?? 0);
}

/**
 * A control with its visible label, tied by id: a label wrapping a select would name it by
 * its options' text too.
 */
export function Field({ label, children }: { label: string; children: VNode<{ id?: string }> }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {cloneElement(children, { id })}
    </div>
  );
}

/** A secret the server will never show again: shown once, with what it belongs to. */
export function Secret({
  of,
  secret,
  onClose,
}: {
  of: string;
  secret: string;
  onClose: () => void;
}) {
  return (
    <div class="secret" role="status">
      <p>The secret of {of}. Copy it now: it is shown only this once.</p>
      <code class="token-secret">{secret}</code>
      <button type="button" onClick={onClose}>
        I have copied it
      </button>
    </div>
  );
}
