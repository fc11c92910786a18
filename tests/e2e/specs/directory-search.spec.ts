import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, holdBackRemote, launchBrowser, noJsPage, openPage, waitForRoute } from '../browser';

/** The directory search as a visitor uses it (docs/product.md, Directory search): a task phrasing finds the fitting
 *  tools first with the code, before it, without it, and every route answers the same order. */
const BASE = process.env.BASE_URL!;
let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser.close();
});

const TASK = 'transcribe meetings';
const MEETING_TRANSCRIBERS = ['otter-ai', 'fireflies-ai', 'granola'];
const BROWSER_TASK = 'let my assistant control chrome';

/** The slugs of the cards on screen, in order. */
const cardSlugs = (page: Page) =>
  page
    .locator('.dir-card h2 a')
    .evaluateAll((links) => links.map((a) => (a.getAttribute('href') ?? '').replace('/tool/', '')));

async function assertTranscribersFirst(page: Page) {
  await page.waitForFunction(
    (fitting) => {
      const first = document.querySelector('.dir-card h2 a')?.getAttribute('href') ?? '';
      return fitting.some((slug: string) => first === `/tool/${slug}`);
    },
    MEETING_TRANSCRIBERS,
    { timeout: 10_000 },
  );
  const top = (await cardSlugs(page)).slice(0, 5);
  for (const slug of MEETING_TRANSCRIBERS) assert.ok(top.includes(slug), `${slug} among the first five: ${top}`);
}

async function apiOrder(path: string): Promise<string[]> {
  const body = await (await fetch(`${BASE}${path}`)).json();
  return body.tools.map((t: { slug: string }) => t.slug);
}

describe('the directory search finds a tool by the task', () => {
  it('typing a task phrasing shows the fitting tools first, in Best match order, the order the API gives', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${BASE}/`);
    await waitForRoute(page);
    await page.getByPlaceholder('Search tools and servers...').pressSequentially(TASK);
    await page.waitForURL((u) => u.searchParams.get('search') === TASK);
    await assertTranscribersFirst(page);
    const sort = page.getByLabel('Sort by');
    assert.equal(await sort.evaluate((s: HTMLSelectElement) => s.selectedOptions[0].textContent), 'Best match');
    const shown = await cardSlugs(page);
    assert.deepEqual(shown, (await apiOrder(`/api/tools/query?search=${encodeURIComponent(TASK)}`)).slice(0, 24));
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('keeps the order when the code arrives late: typed before hydration, ranked after it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await holdBackRemote(page, 'directory', 4000);
    await page.goto(`${BASE}/`, { waitUntil: 'commit' });
    const box = page.getByPlaceholder('Search tools and servers...');
    await box.waitFor();
    await box.pressSequentially(TASK);
    await waitForRoute(page);
    await page.waitForURL((u) => u.searchParams.get('search') === TASK);
    await assertTranscribersFirst(page);
    await context.close();
  });

  it('ranks the same way in the form without JavaScript (Enter sends the default sort as Best match)', async () => {
    const page = await noJsPage(browser);
    await page.goto(`${BASE}/`);
    await page.getByPlaceholder('Search tools and servers...').fill(TASK);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.searchParams.get('search') === TASK);
    assert.equal(new URL(page.url()).searchParams.get('sort'), '', 'the default sort sends no value');
    await assertTranscribersFirst(page);
    assert.deepEqual(
      await cardSlugs(page),
      (await apiOrder(`/api/tools/query?search=${encodeURIComponent(TASK)}`)).slice(0, 24),
    );
    await page.context().close();
  });

  it('gives the same order through /api/tools/query, /api/tools and /v0.1/servers?search=', async () => {
    const q = encodeURIComponent(BROWSER_TASK);
    const page = await apiOrder(`/api/tools/query?search=${q}&size=96`);
    assert.ok(['playwright-mcp-server', 'puppeteer-mcp-server'].includes(page[0]), `first: ${page[0]}`);
    const list = (await (await fetch(`${BASE}/api/tools?search=${q}`)).json()).data.map(
      (t: { slug: string }) => t.slug,
    );
    assert.deepEqual(list.slice(0, page.length), page);
    const servers = await apiOrder(`/api/tools/query?search=${q}&type=mcp-servers&size=96`);
    const registry = (await (await fetch(`${BASE}/v0.1/servers?search=${q}&limit=100`)).json()).servers.map(
      (s: { _meta: Record<string, { slug: string }> }) => Object.values(s._meta)[0].slug,
    );
    assert.deepEqual(registry.slice(0, servers.length), servers);
  });
});
