import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { skipUnless } from '@fulfil/core/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { type ConsoleServer, type ConsoleServerOptions, startConsoleServer } from './server.js';

/**
 * The console in a real browser: headless Chromium from the system's packages. Without it the
 * browser tests cannot run; in CI that is a failure, elsewhere a visible skip that says why.
 */

export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export const installed = existsSync(CHROMIUM);
if (!installed && process.env.CI) {
  throw new Error(`${CHROMIUM} is missing: CI must install chromium (.ci/run does)`);
}

/**
 * How long a browser test may take, and how long one of its page waits (a click, a navigation,
 * a locator's waitFor) may: a page often waits on server work, and on a busy machine a browser
 * is slow. Only a page that never gets there should hit them; each wait fails before its test.
 */
export const BROWSER_TEST_MS = 180_000;
const PAGE_WAIT_MS = 60_000;

/** The options of a suite of browser tests: skipped, saying why, where there is no browser. */
export const browserOrSkip = skipUnless(installed, `${CHROMIUM} is not installed`);

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, timeout: 60_000 });
}

/**
 * Starts a whole instance (`prepare` may act on it first) and a browser before the file's
 * tests, and stops both after them.
 */
export function withConsole(
  prepare?: (server: ConsoleServer) => Promise<void>,
  options: ConsoleServerOptions = {},
): {
  server: ConsoleServer;
  browser: Browser;
} {
  const running = {} as { server: ConsoleServer; browser: Browser };
  beforeAll(async () => {
    running.server = await startConsoleServer(options);
    await prepare?.(running.server);
    running.browser = await launch();
  }, 90_000);
  afterAll(async () => {
    await running.browser?.close();
    await running.server?.close();
  });
  return running;
}

/** Widths the console must work at: a laptop and a phone. */
export const WIDTHS = { desktop: 1280, phone: 390 } as const;

/** A page of the console, with everything it did that it must not do written down. */
export interface ConsolePage {
  page: Page;
  /** Requests for anything but the console's own origin (each was refused). */
  elsewhere: string[];
  /** Uncaught errors, console errors, and CSP violations the page reported. */
  errors: string[];
  /** Dialogs (alert, confirm…) that opened: a script ran that should not have. */
  dialogs: string[];
  /** Fails the test when any of the above happened. */
  assertClean(): Promise<void>;
}

/** Records CSP violations in the page before any of its scripts run. */
const RECORD_VIOLATIONS = `
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__violations.push(event.violatedDirective + ' ' + event.blockedURI);
  });
`;

export async function openConsole(
  browser: Browser,
  origin: string,
  width: number = WIDTHS.desktop,
): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  context.setDefaultTimeout(PAGE_WAIT_MS);
  context.setDefaultNavigationTimeout(PAGE_WAIT_MS);
  const page = await context.newPage();
  const elsewhere: string[] = [];
  const errors: string[] = [];
  const dialogs: string[] = [];
  await page.addInitScript(RECORD_VIOLATIONS);
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`)) return route.continue();
    elsewhere.push(`${route.request().resourceType()} ${url}`);
    return route.abort();
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // A 401/404 the page handles is logged by Chromium as a failed resource: not an error of ours.
    if (message.type() === 'error' && !/status of 40[0-9]/.test(message.text())) {
      errors.push(`console: ${message.text()}`);
    }
  });
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return {
    page,
    elsewhere,
    errors,
    dialogs,
    async assertClean() {
      const violations = (await page.evaluate('window.__violations')) as string[];
      expect({ elsewhere, errors, dialogs, violations }).toEqual({
        elsewhere: [],
        errors: [],
        dialogs: [],
        violations: [],
      });
    },
  };
}

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Runs axe-core in the page and fails on any serious or critical violation. axe is evaluated
 * through the DevTools protocol (page.evaluate), which the page's CSP does not govern: a
 * `<script>` tag (addScriptTag) would be blocked by `script-src 'self'`, and bypassing the CSP
 * for the whole context would blind the CSP checks of the same page.
 */
export async function assertAccessible(page: Page, label: string): Promise<void> {
  // Hash routes keep the document, and axe with it: parsed once per document, not per check.
  if (await page.evaluate(`typeof axe === 'undefined'`)) await page.evaluate(AXE);
  const violations = (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)`,
  )) as AxeViolation[];
  const grave = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${JSON.stringify(
          violation.nodes.map((node) => node.target),
        )}`,
    );
  expect(grave, label).toEqual([]);
}

/**
 * Where the screenshots go: those docs/console.md shows to docs/console/ when
 * FULFIL_SCREENSHOTS=1 (to refresh the committed ones); every other one, and all of them in an
 * ordinary run, to a scratch directory, so that a test run leaves the work tree as it was.
 */
const DOCS = fileURLToPath(new URL('../../../docs/console/', import.meta.url));
const SCRATCH = join(tmpdir(), 'fulfil-console-screenshots/');

const screenshotPath = (name: string, documented = false): string =>
  `${documented && process.env.FULFIL_SCREENSHOTS ? DOCS : SCRATCH}${name}.png`;

/**
 * A screenshot: PNG of the whole page, as an operator scrolls it, or of the screen alone (a
 * dialog over the page).
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean; documented?: boolean } = {},
): Promise<string> {
  const path = screenshotPath(name, options.documented);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: options.fullPage ?? true });
  return path;
}

/** Logs in through the form, as an operator would, and waits for the dashboard. */
export async function logIn(
  { page }: ConsolePage,
  url: string,
  operator: { name: string; secret: string },
): Promise<void> {
  await page.goto(`${url}/admin/`);
  await page.getByLabel('Operator name').fill(operator.name);
  await page.getByLabel('Secret').fill(operator.secret);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
}

/** A new tab of `width`, logged in as the admin (or `operator`), at the view `hash` (`#/…`). */
export async function openAt(
  running: { server: ConsoleServer; browser: Browser },
  hash: string,
  options: { width?: number; operator?: { name: string; secret: string } } = {},
): Promise<ConsolePage> {
  const tab = await openConsole(running.browser, running.server.url, options.width);
  await logIn(tab, running.server.url, options.operator ?? running.server.admin);
  await tab.page.goto(`${running.server.url}/admin/${hash}`);
  return tab;
}
