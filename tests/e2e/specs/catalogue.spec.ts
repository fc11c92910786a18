/**
 * A catalogue too large to hold in the browser (over LOCAL_QUERY_LIMIT tools): each change moves the address and
 * the route's loader asks the API for that one page; a newer change aborts the older request.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, waitForRoute } from '../browser';
import { startSite, type Site } from '../harness';
import { buildCatalogueDatabase } from '../../bench/catalogue';

const TOOLS = 1_500;
let browser: Browser;
let site: Site;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'aitools-e2e-catalogue-'));
  const db = await buildCatalogueDatabase(join(dir, 'site.sqlite'), TOOLS);
  await db.destroy();
  site = await startSite({
    releasesDir: process.env.RELEASES_DIR,
    extraEnv: { DATABASE_PATH: join(dir, 'site.sqlite') },
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await site?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const total = async (search: string) =>
  ((await (await fetch(`${site.baseUrl}/api/tools/query?search=${search}`)).json()) as { total: number }).total;

describe(`directory at ${TOOLS.toLocaleString('en')} tools`, () => {
  it('answers each keystroke with one request for one page, never the whole list, and the address follows', async () => {
    const { page, errors, requests } = await openPage(browser);
    await page.goto(`${site.baseUrl}/`);
    await waitForRoute(page);
    await page.getByText(`Showing 1 to 24 of ${TOOLS} results`).waitFor();
    const box = page.getByPlaceholder('Search tools and servers...');
    await box.focus();
    for (const [i, typed] of ['n', 'no', 'not', 'noti', 'notio', 'notion'].entries()) {
      await page.keyboard.press('notion'[i]);
      const expected = await total(typed);
      await page.getByText(new RegExp(`of ${expected} results$`)).waitFor();
      await page.waitForURL((u) => u.search === `?search=${typed}`);
    }
    const asked = requests.filter((u) => u.includes('/api/tools'));
    assert.ok(!asked.some((u) => new URL(u).pathname === '/api/tools'), 'the whole list is never fetched');
    for (const typed of ['n', 'no', 'not', 'noti', 'notio', 'notion'])
      assert.equal(
        asked.filter((u) => u.endsWith(`/api/tools/query?search=${typed}`)).length,
        1,
        `"${typed}" asked once`,
      );
    // A category, through the same loader.
    await page.getByRole('list', { name: 'Category' }).getByRole('link', { name: 'MCP Servers' }).click();
    await page.waitForURL((u) => u.search === '?category=MCP+Servers&search=notion');
    const mcp = (
      (await (await fetch(`${site.baseUrl}/api/tools/query?category=MCP+Servers&search=notion`)).json()) as {
        total: number;
      }
    ).total;
    await page.getByText(`${mcp} ${mcp === 1 ? 'tool' : 'tools'} found`).waitFor();
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('aborts the request of a keystroke that a newer one overtook, and shows the newer results', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${site.baseUrl}/`);
    await waitForRoute(page);
    // The API is slow to answer "no": the next key comes first. `overtaken` settles once that answer was let through.
    let letThrough!: () => void;
    const overtaken = new Promise<void>((r) => (letThrough = r));
    await page.route('**/api/tools/query?search=no', async (route) => {
      await new Promise((r) => setTimeout(r, 1_500));
      await route.continue().catch(() => {});
      letThrough();
    });
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(`${new URL(r.url()).search} ${r.failure()?.errorText}`));
    const box = page.getByPlaceholder('Search tools and servers...');
    await box.focus();
    await page.keyboard.press('n');
    await page.getByText(new RegExp(`of ${await total('n')} results$`)).waitFor();
    const askedNo = page.waitForRequest((r) => new URL(r.url()).search === '?search=no');
    await page.keyboard.press('o');
    await askedNo;
    await page.keyboard.press('t');
    // The typed text is in the box at once; the results and the address are the newest keystroke's.
    assert.equal(await box.inputValue(), 'not');
    await page.getByText(new RegExp(`of ${await total('not')} results$`)).waitFor();
    await page.waitForURL((u) => u.search === '?search=not');
    // "no" was overtaken and aborted. "n" may be too, when its results showed before its own answer came (the
    // newest keystroke's request is never the one aborted).
    assert.ok(failed.includes('?search=no net::ERR_ABORTED'), failed.join(', '));
    assert.deepEqual(
      failed.filter((f) => f !== '?search=n net::ERR_ABORTED' && f !== '?search=no net::ERR_ABORTED'),
      [],
    );
    // Once the overtaken answer was let through, it has changed nothing.
    await overtaken;
    await page.getByText(new RegExp(`of ${await total('not')} results$`)).waitFor({ timeout: 100 });
    assert.equal(new URL(page.url()).search, '?search=not');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
