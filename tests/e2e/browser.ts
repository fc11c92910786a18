import { chromium, type Browser, type Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Debian's Chromium, driven by playwright-core (a browser download cannot work here). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** A page with JavaScript off, in its own context: only the server's HTML, its links and its forms. */
export async function noJsPage(browser: Browser, opts: { colorScheme?: 'light' | 'dark' } = {}): Promise<Page> {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 1280, height: 900 },
    colorScheme: opts.colorScheme,
  });
  return context.newPage();
}

export interface WatchedPage {
  page: Page;
  /** console errors and uncaught exceptions seen so far */
  errors: string[];
  requests: string[];
}

/** `theme`: a visitor's saved manual choice (as the theme toggle stores it), in place before any page script runs. */
export async function openPage(
  browser: Browser,
  opts: { colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number }; theme?: 'light' | 'dark' } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    colorScheme: opts.colorScheme ?? 'light',
    viewport: opts.viewport ?? { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  if (opts.theme) {
    await page.addInitScript((t) => {
      localStorage.setItem('theme', t);
      localStorage.setItem('themeManual', 'true');
    }, opts.theme);
  }
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => requests.push(r.url()));
  return { page, errors, requests };
}

/** Waits until the current route's code has run in the browser (see shell/src/remotes/RouteReady.tsx). */
export async function waitForRoute(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.routeReady === location.pathname, undefined, {
    timeout: 20_000,
  });
}

/**
 * Once the page has nothing left to do: no request under way (Playwright's network idle) and the browser has reached
 * an idle period of its own (requestIdleCallback), i.e. after everything the page does by itself after start-up.
 */
export async function waitForSettled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
}

/** axe-core audit against WCAG 2 A/AA; returns readable violations. */
export async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(', ')}`,
  );
}

/** Holds back a remote's files for `ms`, so the server's HTML is on screen without its code (works-early tests). */
export async function holdBackRemote(page: Page, remote: string, ms = 4000): Promise<void> {
  await page.route(`**/remotes/${remote}/**`, async (r) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await r.continue().catch(() => {});
  });
}

declare global {
  interface Window {
    __routeReadyAt?: number;
  }
}

/** Keeps in `window.__routeReadyAt` the moment the mark names this page, on the same clock as first-contentful-paint.
 *  Runs in the page before its own scripts (an init script), so it is self-contained. */
export function markRouteReady(): void {
  new MutationObserver(() => {
    if (window.__routeReadyAt === undefined && document.documentElement.dataset.routeReady === location.pathname)
      window.__routeReadyAt = performance.now();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-route-ready'] });
}

export async function noteRouteReady(page: Page): Promise<void> {
  await page.addInitScript(markRouteReady);
}
