import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Session, Store } from './api.js';

/** What every page may read: who is logged in, the stores they see, and a way to reread them. */
export interface ConsoleContext {
  session: Session;
  stores: Store[];
  /** After a store's settings change (its currency), so that every page shows them. */
  reloadStores: () => void;
}

export const Console = createContext<ConsoleContext | null>(null);

export function useConsole(): ConsoleContext {
  const context = useContext(Console);
  if (!context) throw new Error('the console context is missing');
  return context;
}

/** The store's currency (ISO 4217), or null: amounts then show two decimals and no symbol. */
export function useCurrency(store: string): string | null {
  return useConsole().stores.find((known) => known.store_code === store)?.settings.currency ?? null;
}

/** What a page of one store is given: the store, the view's parameters, the session's role. */
export interface StorePageProps {
  store: string;
  params: URLSearchParams;
  role: string;
}

/** Whether the session's role includes `need` (viewer < operator < admin). */
const RANK: Record<string, number> = { viewer: 0, operator: 1, admin: 2 };

export function may(have: string, need: 'viewer' | 'operator' | 'admin'): boolean {
  return (RANK[have] ?? -1) >= (RANK[need] ?? 0);
}
