import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, type Session, type Store, whenUnauthorized } from './api.js';
import { Console, may } from './context.js';
import { DashboardPage } from './pages/dashboard.js';
import { FailedPage } from './pages/failed.js';
import { HoldsPage } from './pages/holds.js';
import { LoginPage } from './pages/login.js';
import { OperatorsPage } from './pages/operators.js';
import { OrderPage } from './pages/order/order-page.js';
import { OrdersPage } from './pages/orders.js';
import { ReturnPage, ReturnsPage } from './pages/returns.js';
import { RoutingPage } from './pages/routing.js';
import { StockPage } from './pages/stock.js';
import { StorePage } from './pages/store.js';
import { TokensPage } from './pages/tokens.js';
import { href, navigate, type Route, useRoute } from './router.js';
import { ErrorBanner } from './ui/banner.js';
import { messageOf } from './ui/load.js';
import { Page } from './ui/page.js';
import { Toasts } from './ui/toast.js';
import { OPERATOR_ROLE } from './ui/words.js';

/** The pages of one store, in the order the menu lists them. */
const STORE_PAGES = [
  ['orders', 'Orders'],
  ['past-due', 'Past due'],
  ['failed', 'Failed'],
  ['holds', 'Holds & cancellations'],
  ['returns', 'Returns'],
  ['stock', 'Stock'],
  ['routing', 'Routing'],
  ['tokens', 'Tokens'],
  ['settings', 'Store & warehouses'],
] as const;

function Missing({ text }: { text: string }) {
  return (
    <Page title="Not found">
      <ErrorBanner error={text} />
    </Page>
  );
}

function Routed({ route, session, stores }: { route: Route; session: Session; stores: Store[] }) {
  const [first, page, arg] = route.parts;
  if (!first) return <DashboardPage />;
  if (first === 'operators' && page === undefined) return <OperatorsPage />;
  const store = first;
  if (!stores.some((known) => known.store_code === store)) {
    return <Missing text={`There is no store ${store} you can see.`} />;
  }
  const role = session.role;
  switch (page) {
    case 'orders':
      return arg === undefined ? (
        <OrdersPage store={store} params={route.params} role={role} />
      ) : (
        <OrderPage store={store} number={arg} role={role} />
      );
    case 'past-due':
      return <OrdersPage store={store} params={route.params} role={role} pastDue />;
    case 'failed':
      return <FailedPage store={store} params={route.params} role={role} />;
    case 'holds':
      return <HoldsPage store={store} params={route.params} />;
    case 'returns':
      return arg === undefined ? (
        <ReturnsPage store={store} role={role} params={route.params} />
      ) : (
        <ReturnPage store={store} role={role} rma={arg} />
      );
    case 'stock':
      return <StockPage store={store} role={role} />;
    case 'routing':
      return <RoutingPage store={store} />;
    case 'tokens':
      return <TokensPage store={store} role={role} />;
    case 'settings':
      return <StorePage store={store} role={role} />;
    default:
      return <Missing text="There is no such page." />;
  }
}

function Shell({ session, onLogout }: { session: Session; onLogout: () => void }) {
  const route = useRoute();
  const [stores, setStores] = useState<Store[]>();
  const [error, setError] = useState<string>();
  const reloadStores = useCallback(() => {
    api<{ stores: Store[] }>('GET', 'stores').then(
      (answer) => setStores(answer.stores),
      (caught: unknown) => setError(messageOf(caught)),
    );
  }, []);
  useEffect(reloadStores, []);
  const [first, page] = route.parts;
  // On a phone the menu scrolls sideways: the page open is always in sight (the menu alone
  // scrolls, never the page).
  useEffect(() => {
    const nav = document.querySelector<HTMLElement>('.top nav');
    const current = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (nav && current) {
      const offset = current.getBoundingClientRect().left - nav.getBoundingClientRect().left;
      nav.scrollLeft += offset - (nav.clientWidth - current.offsetWidth) / 2;
    }
  }, [first, page, stores !== undefined]);
  const store =
    first && first !== 'operators' ? first : (session.store_code ?? stores?.[0]?.store_code);
  const logout = () => {
    api('DELETE', 'session').finally(onLogout);
  };
  return (
    <Console.Provider value={{ session, stores: stores ?? [], reloadStores }}>
      <button type="button" class="skip" onClick={skipToMain}>
        Skip to content
      </button>
      <header class="top">
        <a class="brand" href="#/">
          Fulfil
        </a>
        <nav aria-label="Main">
          <ul>
            <li>
              <a href="#/" aria-current={first ? undefined : 'page'}>
                Dashboard
              </a>
            </li>
            {store &&
              STORE_PAGES.map(([name, label]) => (
                <li key={name}>
                  <a
                    href={href([store, name])}
                    aria-current={first === store && page === name ? 'page' : undefined}
                  >
                    {label}
                  </a>
                </li>
              ))}
            {may(session.role, 'admin') && session.store_code === null && (
              <li>
                <a href="#/operators" aria-current={first === 'operators' ? 'page' : undefined}>
                  Operators
                </a>
              </li>
            )}
          </ul>
        </nav>
        <div class="who">
          {stores && stores.length > 1 && store && (
            <label class="store-pick">
              <span>Store</span>
              <select
                class="control"
                value={store}
                onChange={(event) => navigate(href([event.currentTarget.value, page ?? 'orders']))}
              >
                {stores.map((known) => (
                  <option key={known.store_code} value={known.store_code}>
                    {known.store_code}
                  </option>
                ))}
              </select>
            </label>
          )}
          <span>
            {session.name} <small class="who__role">{OPERATOR_ROLE[session.role].words}</small>
          </span>
          <button type="button" class="button button--plain" onClick={logout}>
            Log out
          </button>
        </div>
      </header>
      <main id="main">
        <ErrorBanner error={error} />
        {stores && (
          <Routed key={route.parts.join('/')} route={route} session={session} stores={stores} />
        )}
      </main>
      <Toasts />
    </Console.Provider>
  );
}

/** Skips the menu: the fragment is the router's, so the focus moves by hand, not by anchor. */
function skipToMain(event: Event) {
  event.preventDefault();
  document.querySelector<HTMLElement>('main h1')?.focus();
}

function App() {
  const [session, setSession] = useState<Session | null>();
  useEffect(() => {
    whenUnauthorized(() => setSession(null));
    api<Session>('GET', 'session').then(setSession, () => setSession(null));
  }, []);
  if (session === undefined) return <p>Loading…</p>;
  if (session === null) return <LoginPage onLogin={setSession} />;
  return <Shell session={session} onLogout={() => setSession(null)} />;
}

const root = document.getElementById('app');
if (root) render(<App />, root);
