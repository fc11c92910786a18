/**
 * What a browser sees: first paint and code ready on an emulated phone, and the JavaScript a first visit downloads.
 * Code ready is <html data-route-ready="/path">, set once the route's code has run (shell/src/remotes/RouteReady.tsx).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { summarize } from './stats';
import { noteRouteReady } from '../e2e/browser';
import type { PlainChromium } from './plainChromium';

/** The slow phone's network (docs/performance.md): 150 ms round trips, 1.6 Mbps down, 750 kbps up (DevTools network emulation). */
export const PHONE_NETWORK = {
  offline: false,
  latency: 150,
  downloadThroughput: 1_600_000 / 8,
  uploadThroughput: 750_000 / 8,
};

/** The slow phone's screen (Lighthouse's mobile one): its first screen is what loads before the code, as on a phone
 *  (a desktop window would ask for every card's logo at once). */
export const PHONE_SCREEN = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
} as const;

async function freshPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await noteRouteReady(page);
  return { context, page };
}

export interface PhoneTimes {
  paint: number;
  ready: number;
}

/** Median first paint and code ready of `runs` cold visits to `url` on the emulated phone, in a Chromium with no
 *  debugger on the page (plainChromium.ts): what a visitor's phone runs, without the measurement's own work. */
export async function phoneTimes(browser: PlainChromium, url: string, runs: number): Promise<PhoneTimes> {
  return (await phoneTimesInTurn(browser, [url], runs))[0]!;
}

/** The same for several pages, visited in turn (one of each, then again), so a drift of the machine moves all
 *  alike; one median per url, in order. */
export async function phoneTimesInTurn(browser: PlainChromium, urls: string[], runs: number): Promise<PhoneTimes[]> {
  const paint = urls.map((): number[] => []);
  const ready = urls.map((): number[] => []);
  for (let i = 0; i < runs; i++)
    for (const [u, url] of urls.entries()) {
      const t = await browser.visit(url, { network: PHONE_NETWORK, screen: PHONE_SCREEN });
      paint[u]!.push(t.paint);
      ready[u]!.push(t.ready);
    }
  return urls.map((_, u) => ({ paint: summarize(paint[u]!).median, ready: summarize(ready[u]!).median }));
}

export interface FirstVisitJs {
  /** encoded (on-the-wire) body bytes of every JavaScript response */
  bytes: number;
  files: number;
  encodings: string[];
}

/** The JavaScript a first visit to `url` downloads (empty cache, gzip offered), until the network is idle. */
export async function firstVisitJs(browser: Browser, url: string): Promise<FirstVisitJs> {
  const { context, page } = await freshPage(browser);
  try {
    await context.setExtraHTTPHeaders({ 'accept-encoding': 'gzip' });
    const sizes: Promise<{ bytes: number; encoding: string } | null>[] = [];
    page.on('requestfinished', (req) => {
      sizes.push(
        (async () => {
          const res = await req.response();
          if (!res || !/javascript/.test(res.headers()['content-type'] ?? '')) return null;
          return {
            bytes: (await req.sizes()).responseBodySize,
            encoding: res.headers()['content-encoding'] ?? 'identity',
          };
        })(),
      );
    });
    await page.goto(url);
    await page.waitForFunction(() => window.__routeReadyAt !== undefined, undefined, { timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    const js = (await Promise.all(sizes)).filter((s) => s !== null);
    return {
      bytes: js.reduce((n, s) => n + s.bytes, 0),
      files: js.length,
      encodings: [...new Set(js.map((s) => s.encoding))],
    };
  } finally {
    await context.close();
  }
}

declare global {
  interface Window {
    __keyAt?: number;
    __resultsAt?: number;
  }
}

/**
 * Keystroke to results on screen, on the directory's home page once its code is ready: types each of `words` in a
 * fresh page, one key at a time, and times each key from its keydown to the last change of the results that makes
 * them say the query's total (taken from the API beforehand). Keys that leave the total unchanged are not counted
 * (nothing to see). With `totalsUrl` (a twin server on a copy of the same data) the totals are asked of the twin, so
 * the site typed into makes every key's reply afresh, as for a visitor typing something new; else they are asked of
 * the site itself, whose reply cache then holds them.
 */
export async function keystrokeToResults(
  browser: Browser,
  baseUrl: string,
  words: string[],
  totalsUrl = baseUrl,
): Promise<{ samples: number[]; median: number; p95: number; max: number; keys: number }> {
  const samples: number[] = [];
  for (const text of words) samples.push(...(await typeOnce(browser, baseUrl, totalsUrl, text)));
  return { samples, ...summarize(samples), keys: samples.length };
}

async function typeOnce(browser: Browser, baseUrl: string, totalsUrl: string, text: string): Promise<number[]> {
  const totals: number[] = [];
  for (let i = 0; i <= text.length; i++) {
    const answer = (await (
      await fetch(`${totalsUrl}/api/tools/query?search=${encodeURIComponent(text.slice(0, i))}`)
    ).json()) as { total: number };
    totals.push(answer.total);
  }
  const { context, page } = await freshPage(browser);
  try {
    await page.goto(`${baseUrl}/`);
    await page.waitForFunction(() => document.documentElement.dataset.routeReady === '/', undefined, {
      timeout: 30_000,
    });
    await page.evaluate(() => {
      addEventListener('keydown', () => (window.__keyAt = performance.now()), { capture: true });
      new MutationObserver(() => (window.__resultsAt = performance.now())).observe(document.getElementById('tools')!, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    await page.locator('input[name="search"]').first().focus();
    const samples: number[] = [];
    for (let i = 1; i <= text.length; i++) {
      await page.keyboard.press(text[i - 1]);
      const total = totals[i]!;
      await page.waitForFunction(
        (t) => (document.querySelector('.dir-showing')?.textContent ?? 'of 0 results').endsWith(`of ${t} results`),
        total,
        { timeout: 10_000 },
      );
      // Later changes for this key (a second render) count too: wait a little for them, then read the last one.
      await page.waitForTimeout(100);
      if (total !== totals[i - 1]) samples.push(await page.evaluate(() => window.__resultsAt! - window.__keyAt!));
    }
    return samples;
  } finally {
    await context.close();
  }
}
