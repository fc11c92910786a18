import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { holdBackRemote, launchBrowser, noJsPage, waitForRoute } from '../browser';

/** The blog without its code: with JavaScript off, and before the code arrives. */
const BASE = process.env.BASE_URL!;
const HISTORY = 'how-ai-all-started-history-artificial-intelligence';
const CODE_DELAY_MS = 4000;
let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser.close();
});

/** JavaScript on, but the blog remote's files held back, so the server's HTML is on screen without its code. */
async function slowCodePage(): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await holdBackRemote(page, 'blog', CODE_DELAY_MS);
  return { page, errors };
}

const routeReady = (page: Page) =>
  page.evaluate(() => document.documentElement.dataset.routeReady === location.pathname);
const titles = (page: Page) => page.locator('.blog-featured__title, .blog-card__title').allTextContents();
const chip = (page: Page, name: string) =>
  page.getByRole('group', { name: 'Categories' }).getByRole('link', { name, exact: true });

describe('blog with JavaScript off', () => {
  it('filters by a chip link with the hint, and the active chip links back to All', async () => {
    const page = await noJsPage(browser);
    await page.goto(`${BASE}/blog`);
    assert.equal(await chip(page, 'All').getAttribute('aria-current'), 'true');
    await chip(page, 'MCP').click();
    await page.waitForURL(`${BASE}/blog?category=MCP`);
    await page.getByText('Click "MCP" again to clear filter').waitFor();
    assert.equal(await chip(page, 'MCP').getAttribute('aria-current'), 'true');
    const shown = await titles(page);
    assert.ok(shown.includes('How to Set Up Your First MCP Server in Claude Desktop'), shown.join(' | '));
    assert.ok(!shown.includes('How AI All Started: A Brief History of Artificial Intelligence'), 'not an MCP post');
    await chip(page, 'MCP').click();
    await page.waitForURL(`${BASE}/blog`);
    assert.equal(await page.getByText(/again to clear filter/).count(), 0);
    await page.getByText('16 Articles').waitFor();
    await page.context().close();
  });

  it('searches by Enter (keeping the chosen category)', async () => {
    const page = await noJsPage(browser);
    await page.goto(`${BASE}/blog`);
    await page.getByPlaceholder('Search posts...').fill('PLAIN-english');
    await page.getByPlaceholder('Search posts...').press('Enter');
    await page.waitForURL(`${BASE}/blog?search=PLAIN-english`);
    await page.getByText('1 Article', { exact: true }).waitFor();
    assert.deepEqual(await titles(page), ['What Is the Model Context Protocol (MCP)? A Plain-English Guide']);
    assert.equal(await page.getByPlaceholder('Search posts...').inputValue(), 'PLAIN-english');

    await page.goto(`${BASE}/blog?category=AI+History`);
    await page.getByPlaceholder('Search posts...').fill('no such words anywhere');
    await page.getByPlaceholder('Search posts...').press('Enter');
    await page.waitForURL(`${BASE}/blog?search=no+such+words+anywhere&category=AI+History`);
    await page.getByRole('heading', { name: 'No blog posts found' }).waitFor();
    await page.getByRole('link', { name: 'Clear Filters' }).click();
    await page.waitForURL(`${BASE}/blog`);
    await page.getByText('16 Articles').waitFor();
    await page.context().close();
  });

  it('opens page 2 by its link', async () => {
    const page = await noJsPage(browser);
    await page.goto(`${BASE}/blog`);
    assert.equal(await page.getByRole('link', { name: 'Previous page' }).getAttribute('aria-disabled'), 'true');
    await page.getByRole('link', { name: 'Page 2' }).click();
    await page.waitForURL(`${BASE}/blog?page=2`);
    await page.getByText('Page 2 of 2').waitFor();
    assert.equal(await page.locator('.blog-card').count(), 3);
    assert.equal(await page.getByRole('link', { name: 'Page 2' }).getAttribute('aria-current'), 'page');
    assert.equal(await page.getByRole('link', { name: 'Next page' }).getAttribute('aria-disabled'), 'true');
    await page.getByRole('link', { name: 'Previous page' }).click();
    await page.waitForURL(`${BASE}/blog`);
    await page.getByText('Page 1 of 2').waitFor();
    await page.context().close();
  });

  it("shows a post's generated cover as WebP in the width its column needs, and fetches no PNG copy", async () => {
    const page = await noJsPage(browser);
    const covers: string[] = [];
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.pathname.startsWith('/covers/'))
        covers.push(`${res.status()} ${res.headers()['content-type']} ${url.pathname}${url.search}`);
    });
    await page.goto(`${BASE}/blog/${HISTORY}`, { waitUntil: 'load' });
    // A 788 px column on a screen of pixel ratio 1: the 800 px copy.
    assert.equal(covers.length, 1, covers.join('; '));
    assert.match(covers[0]!, new RegExp(`^200 image/webp /covers/${HISTORY}\\.webp\\?v=\\w+&w=800$`));
    await page.context().close();
  });

  it('shares a post by a link to an email with its title and canonical address', async () => {
    const page = await noJsPage(browser);
    await page.goto(`${BASE}/blog/${HISTORY}`);
    const share = page.getByRole('link', { name: 'Share' });
    assert.equal(await share.getAttribute('aria-describedby'), 'blog-share-label');
    const email = new URLSearchParams((await share.getAttribute('href'))!.replace(/^mailto:\?/, ''));
    assert.equal(email.get('subject'), await page.getByRole('heading', { level: 1 }).textContent());
    assert.match(email.get('body')!, new RegExp(`\\n\\nhttps://[^/\\s]+/blog/${HISTORY}$`));
    await page.context().close();
  });

  it('answers a missing post with 404 and the not-found page', async () => {
    const page = await noJsPage(browser);
    const res = await page.goto(`${BASE}/blog/no-such-post`);
    assert.equal(res?.status(), 404);
    await page.getByRole('heading', { name: 'Blog Post Not Found' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Browse All Blog Posts' }).getAttribute('href'), '/blog');
    await page.context().close();
  });
});

describe('blog before its code arrives', () => {
  it('keeps text typed into the search before hydration and applies it once the code is ready', async () => {
    const { page, errors } = await slowCodePage();
    await page.goto(`${BASE}/blog`, { waitUntil: 'commit' });
    const search = page.getByPlaceholder('Search posts...');
    await search.waitFor();
    await search.pressSequentially('plain-english');
    assert.equal(await routeReady(page), false, 'typed before the code ran');
    await waitForRoute(page);
    await page.waitForURL(`${BASE}/blog?search=plain-english`);
    await page.getByText('1 Article', { exact: true }).waitFor();
    assert.equal(await search.inputValue(), 'plain-english');
    assert.deepEqual(await titles(page), ['What Is the Model Context Protocol (MCP)? A Plain-English Guide']);
    // And it filters per keystroke from then on.
    await search.fill('history');
    await page.waitForURL(`${BASE}/blog?search=history`);
    await page
      .getByRole('link', { name: 'How AI All Started: A Brief History of Artificial Intelligence' })
      .first()
      .waitFor();
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('keeps the place a visitor scrolled to in a post before the code arrived', async () => {
    const { page, errors } = await slowCodePage();
    await page.goto(`${BASE}/blog/${HISTORY}`, { waitUntil: 'domcontentloaded' });
    await page.mouse.wheel(0, 1200);
    await page.waitForFunction(() => window.scrollY >= 1000);
    assert.equal(await routeReady(page), false, 'scrolled before the code ran');
    const before = await page.evaluate(() => window.scrollY);
    await waitForRoute(page);
    // A frame after hydration's effects: the page stays where the visitor left it.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal(await page.evaluate(() => window.scrollY), before);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('filters by a chip clicked before hydration', async () => {
    const { page, errors } = await slowCodePage();
    await page.goto(`${BASE}/blog`, { waitUntil: 'commit' });
    await chip(page, 'AI History').waitFor();
    assert.equal(await routeReady(page), false, 'clicked before the code ran');
    await chip(page, 'AI History').click();
    await page.waitForURL(`${BASE}/blog?category=AI+History`);
    await page.getByText('Click "AI History" again to clear filter').waitFor();
    assert.ok((await titles(page)).includes('How AI All Started: A Brief History of Artificial Intelligence'));
    await waitForRoute(page);
    assert.equal(await chip(page, 'AI History').getAttribute('aria-current'), 'true');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
