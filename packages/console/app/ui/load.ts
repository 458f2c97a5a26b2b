import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api.js';

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

export interface Action {
  busy: boolean;
  error: string | undefined;
  /**
   * Runs the action unless one is under way (a second click or submit does nothing), keeping
   * its error to show; resolves to its value, or undefined when it failed or did not run.
   */
  run: <T>(action: () => Promise<T>) => Promise<T | undefined>;
  clear: () => void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const running = useRef(false);
  const run = useCallback(async <T>(action: () => Promise<T>) => {
    if (running.current) return undefined;
    running.current = true;
    setBusy(true);
    setError(undefined);
    try {
      return await action();
    } catch (caught) {
      setError(messageOf(caught));
      return undefined;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  const clear = useCallback(() => setError(undefined), []);
  return { busy, error, run, clear };
}
