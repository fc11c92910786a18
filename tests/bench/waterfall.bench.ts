/**
 * The shell → manifest → remote → data waterfall as a slow phone sees it: Chromium with 150 ms round trips
 * (DevTools network emulation), time from navigation to the route's code having run, with the server's preload
 * hints as served and with them stripped. Prints figures only.
 */
import { launchBrowser } from '../e2e/browser';
import { startSite } from '../e2e/harness';
import { ms, summarize } from './stats';

const ROUTES = ['/', '/tool/cursor', '/blog', '/privacy'];
const RUNS = 5;

const site = await startSite({ extraEnv: { LOG_LEVEL: 'silent' } });
const browser = await launchBrowser();
try {
  console.log('route            first paint     code ran: with preload   without   (median of 5, 150 ms RTT, 1.6 Mbps)');
  for (const route of ROUTES) {
    const figures: Record<string, number[]> = { with: [], without: [], paint: [] };
    for (const mode of ['with', 'without'] as const) {
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 });
        if (mode === 'without') {
          await page.route(site.baseUrl + route, async (r) => {
            const res = await r.fetch();
            const body = (await res.text()).replace(/<link rel="modulepreload" href="\/remotes\/[^"]+">/g, '');
            await r.fulfill({ response: res, body });
          });
        }
        const start = Date.now();
        await page.goto(site.baseUrl + route);
        await page.waitForFunction(() => document.documentElement.dataset.routeReady === location.pathname, undefined, { timeout: 60_000 });
        figures[mode].push(Date.now() - start);
        if (mode === 'with') {
          // The server HTML is readable from the first paint, long before the route's code has run.
          figures.paint.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN));
        }
        await context.close();
      }
    }
    const median = (k: string) => ms(summarize(figures[k]).median);
    console.log(`${route.padEnd(17)}${median('paint').padEnd(16)}${median('with').padEnd(25)}${median('without')}`);
  }
} finally {
  await browser.close();
  await site.stop();
}
