/**
 * The "phones" rows of `pnpm bench` (docs/performance.md, "Phones"): Lighthouse's blocking time over several runs
 * per key page, and INP of three interactions in Chromium with the CPU slowed four times. Both builds are served at
 * once and measured in turn, run by run, so a change of the machine's load moves both alike.
 */
import type { Browser } from 'playwright-core';
import { PHONE_SCREEN } from './browser';
import { CPU_SLOWDOWN } from './longTasks';
import { lighthouse, type LighthouseFigures } from './lighthouse';
import { summarize } from './stats';

export interface LighthouseRuns {
  tbt: number[];
  performance: number[];
}

/** `runs` Lighthouse runs of each of `urls` (one per site), taken in turn: a, b, a, b... */
export async function lighthouseRuns(
  urls: Record<string, string>,
  runs: number,
  log: (line: string) => void,
): Promise<Record<string, LighthouseRuns>> {
  const out: Record<string, LighthouseRuns> = {};
  for (const site of Object.keys(urls)) out[site] = { tbt: [], performance: [] };
  for (let i = 0; i < runs; i++)
    for (const [site, url] of Object.entries(urls)) {
      log(`phones: lighthouse ${url} (${site}, run ${i + 1} of ${runs})`);
      let l: LighthouseFigures | null = null;
      // Lighthouse now and then loses its trace on a loaded machine (NO_NAVSTART): one more try.
      for (let attempt = 0; attempt < 2 && !l; attempt++)
        try {
          l = await lighthouse(url);
        } catch (err) {
          if (attempt === 1) throw err;
        }
      out[site]!.tbt.push(l!.tbt);
      out[site]!.performance.push(l!.performance);
    }
  return out;
}

/** "median 12 ms (4-60), worst 60 · performance 1.00 (0.98-1.00)" */
export function lighthouseRunsText(r: LighthouseRuns): string {
  const tbt = summarize(r.tbt);
  const perf = summarize(r.performance);
  return (
    `TBT median ${Math.round(tbt.median)} ms, worst ${Math.round(tbt.max)} ms (${r.tbt.map(Math.round).join(', ')})` +
    ` · performance ${perf.median.toFixed(2)} (${Math.min(...r.performance).toFixed(2)}-${perf.max.toFixed(2)})`
  );
}

export type Interaction = 'type a word into the home search' | 'click a category chip' | 'open a FAQ entry';
export const INTERACTIONS: Interaction[] = [
  'type a word into the home search',
  'click a category chip',
  'open a FAQ entry',
];

declare global {
  interface Window {
    __interactions?: number[];
  }
}

/**
 * INP of one interaction on `/` of `baseUrl`: a fresh page with the CPU slowed, its code ready, then the interaction;
 * the longest Event Timing duration of its interactions (input delay, handlers and the next paint).
 */
export async function interactionToNextPaint(browser: Browser, baseUrl: string, what: Interaction): Promise<number> {
  const context = await browser.newContext(PHONE_SCREEN);
  try {
    const page = await context.newPage();
    await page.addInitScript(() => {
      window.__interactions = [];
      new PerformanceObserver((list) => {
        // interactionId: Event Timing's, not yet in TypeScript's DOM types.
        for (const e of list.getEntries() as (PerformanceEventTiming & { interactionId?: number })[])
          if (e.interactionId) window.__interactions!.push(e.duration);
      }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(`${baseUrl}/`);
    await page.waitForFunction(() => document.documentElement.dataset.routeReady === '/', undefined, {
      timeout: 60_000,
    });
    if (what === 'type a word into the home search') {
      await page.locator('input[name="search"]').first().click();
      await page.keyboard.type('notion', { delay: 120 });
      await page.waitForFunction(() => location.search.includes('notion'), undefined, { timeout: 30_000 });
    } else if (what === 'click a category chip') {
      const chip = page.locator('.dir-chips[aria-label="Category"] a').nth(1);
      const href = await chip.getAttribute('href');
      await chip.click();
      await page.waitForFunction((h) => location.pathname + location.search === h, href, { timeout: 30_000 });
    } else {
      // A native disclosure, or the button of builds before the FAQ used them (the baseline).
      const question = page.locator('#faq summary, #faq .dir-faq__q button').first();
      await question.scrollIntoViewIfNeeded();
      await question.click();
      await page.waitForFunction(
        () =>
          document.querySelector<HTMLDetailsElement>('#faq details')?.open === true ||
          document.querySelector('#faq .dir-faq__q button')?.getAttribute('aria-expanded') === 'true',
        undefined,
        { timeout: 30_000 },
      );
    }
    // The entry of the last interaction is reported after its next paint.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 500))));
    const durations = await page.evaluate(() => window.__interactions ?? []);
    return durations.length ? Math.max(...durations) : 0;
  } finally {
    await context.close();
  }
}

/** Each interaction `runs` times on each site, in turn: the median INP and the spread per site and interaction. */
export async function inpRuns(
  browser: Browser,
  bases: Record<string, string>,
  runs: number,
  log: (line: string) => void,
): Promise<Record<string, Record<Interaction, number[]>>> {
  const out: Record<string, Record<Interaction, number[]>> = {};
  for (const site of Object.keys(bases))
    out[site] = Object.fromEntries(INTERACTIONS.map((i) => [i, []])) as unknown as Record<Interaction, number[]>;
  for (const what of INTERACTIONS)
    for (let i = 0; i < runs; i++)
      for (const [site, base] of Object.entries(bases)) {
        log(`phones: INP, ${what} (${site}, run ${i + 1} of ${runs})`);
        out[site]![what].push(await interactionToNextPaint(browser, base, what));
      }
  return out;
}

export function inpText(samples: number[]): string {
  const s = summarize(samples);
  return `median ${Math.round(s.median)} ms (${Math.round(Math.min(...samples))}-${Math.round(s.max)})`;
}
