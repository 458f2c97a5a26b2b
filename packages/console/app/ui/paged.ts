import { useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from './load.js';

/** The pages of a list shown so far, and how to ask for the next. */
export interface Paged<P> {
  pages: P[];
  busy: boolean;
  error: string | undefined;
  /** Loads the page after the last one shown, unless a load is under way or there is none. */
  more: () => void;
}

/**
 * A list read page by page (`next` names the page after). Whenever `key` changes (a new filter,
 * a reload) it starts over from the first page, and only the answer of the newest request is
 * kept: a search made while another loads is never dropped, and an answer that comes late never
 * shows under a filter it was not asked for.
 */
export function usePagedList<P extends { next: string | null }>(
  read: (after?: string) => Promise<P>,
  key: string,
): Paged<P> {
  const [pages, setPages] = useState<P[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const latest = useRef(0);
  const fetch = (after: string | undefined, keep: (page: P) => void) => {
    const ticket = ++latest.current;
    const current = () => ticket === latest.current;
    setBusy(true);
    setError(undefined);
    read(after)
      .then(
        (page) => {
          if (current()) keep(page);
        },
        (caught: unknown) => {
          if (current()) setError(messageOf(caught));
        },
      )
      .finally(() => {
        if (current()) setBusy(false);
      });
  };
  useEffect(() => {
    setPages([]);
    fetch(undefined, (page) => setPages([page]));
  }, [key]);
  const last = pages[pages.length - 1];
  const more = () => {
    if (busy || !last?.next) return;
    fetch(last.next, (page) => setPages((shown) => [...shown, page]));
  };
  return { pages, busy, error, more };
}
