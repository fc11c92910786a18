/**
 * A catalogue too large to hold in the browser (over LOCAL_QUERY_LIMIT tools): the directory asks the API for one
 * page per change. Each keystroke asks once, from its own event, unless an answer already holds all its results;
 * the results show, then the address follows.
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
    const askedAhead: string[] = [];
    for (const [i, typed] of ['n', 'no', 'not', 'noti', 'notio', 'notion'].entries()) {
      if (requests.some((u) => u.endsWith(`/api/tools/query?search=${typed}`))) askedAhead.push(typed);
      await page.keyboard.press('notion'[i]);
      const expected = await total(typed);
      await page.getByText(new RegExp(`of ${expected} results$`)).waitFor();
    }
    await page.waitForURL((u) => u.search === '?search=notion');
    const asked = requests.filter((u) => u.includes('/api/tools'));
    assert.ok(!asked.some((u) => new URL(u).pathname === '/api/tools'), 'the whole list is never fetched');
    const askedFor = (typed: string) => asked.filter((u) => u.endsWith(`/api/tools/query?search=${typed}`)).length;
    for (const typed of ['n', 'no', 'not', 'noti']) assert.equal(askedFor(typed), 1, `"${typed}" asked once`);
    // "noti" matches a few seed tools: that answer holds every result, so the longer searches need no request.
    assert.ok((await total('noti')) <= 24);
    for (const typed of ['notio', 'notion']) assert.equal(askedFor(typed), 0, `"${typed}" answered in the browser`);
    // The likeliest next keystrokes are asked for while the visitor types: some keys found their page waiting.
    assert.ok(askedAhead.length > 0, 'a page asked for ahead of its keystroke');
    // A category, then Back to the list's address as the server renders it.
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
});
