import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launchBrowser, openPage, waitForRoute } from '../browser';

const BASE = process.env.BASE_URL!;
const HISTORY = 'how-ai-all-started-history-artificial-intelligence';
let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser.close();
});

const cards = (page: Page) => page.locator('.blog-card');
/** Set on the window: it survives in-app navigation and disappears on a full page load. */
const markWindow = (page: Page) =>
  page.evaluate(() => ((window as unknown as { __blogMark: boolean }).__blogMark = true));
const windowMarked = (page: Page) =>
  page.evaluate(() => (window as unknown as { __blogMark?: boolean }).__blogMark === true);

const HISTORY_TITLE = 'How AI All Started: A Brief History of Artificial Intelligence';
/** Finds the history post by the list's search and opens it from its card. */
const openHistoryFromList = async (page: Page) => {
  await page.getByPlaceholder('Search posts...').fill('history');
  await page.getByRole('link', { name: HISTORY_TITLE }).first().click();
};
/** The history post on screen, with its own title. */
const historyShown = async (page: Page) => {
  await page.getByRole('heading', { level: 1, name: HISTORY_TITLE }).waitFor();
  await page.waitForFunction((t) => document.title === t, `${HISTORY_TITLE} | AI Tools Blog`);
};

describe('blog list (/blog)', () => {
  it('is HTML first: posts, head, next link and Blog structured data without JavaScript', async () => {
    const res = await fetch(`${BASE}/blog`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<title>AI Tools Blog \| Expert Insights on AI Tools &amp; Automation<\/title>/);
    assert.match(html, /<link data-head rel="next" href="\/blog\?page=2">/);
    assert.doesNotMatch(html, /rel="prev"/);
    assert.match(html, /<link data-head rel="canonical" href="https:\/\/localhost:\d+\/blog">/);
    assert.match(html, /<meta data-head property="og:description"/);
    assert.match(html, /"@type":"Blog"/);
    assert.equal(html.match(/"@type":"BlogPosting"/g)?.length, 10);
    assert.match(html, /Expert insights on AI tools, automation workflows &amp; enterprise adoption/);
    assert.match(html, />Featured</);
    assert.equal(html.match(/class="blog-card"/g)?.length, 12);
    assert.match(html, /Page <!-- -->1<!-- --> of <!-- -->2/);
    assert.doesNotMatch(html, /Real-World AI Examples/, 'the draft is not listed');
  });

  it('serves page 2 at /blog?page=2 with prev link to /blog and the remaining posts', async () => {
    const html = await (await fetch(`${BASE}/blog?page=2`)).text();
    assert.match(html, /<link data-head rel="prev" href="\/blog">/);
    assert.doesNotMatch(html, /rel="next"/);
    assert.doesNotMatch(html, />Featured</);
    assert.equal(html.match(/class="blog-card"/g)?.length, 3);
    assert.match(html, /<title>AI Tools Blog - Page 2 of 2 \| AI Tools Directory<\/title>/);
  });

  it('hydrates cleanly, searches, toggles a chip with its hint, and passes axe', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${BASE}/blog`);
    await waitForRoute(page);
    assert.equal(await page.locator('h1').textContent(), 'AI Tools Blog');
    assert.deepEqual(await axeViolations(page), []);

    const search = page.getByPlaceholder('Search posts...');
    await search.fill('PLAIN-english');
    await page.getByText('1 Article', { exact: true }).waitFor();
    assert.equal(
      await page.locator('.blog-featured__title').textContent(),
      'What Is the Model Context Protocol (MCP)? A Plain-English Guide',
    );
    await search.fill('');

    const chips = page.getByRole('group', { name: 'Categories' });
    const mcp = chips.getByRole('link', { name: 'MCP', exact: true });
    await markWindow(page);
    await mcp.click();
    await page.getByText('Click "MCP" again to clear filter').waitFor();
    await page.waitForURL(`${BASE}/blog?category=MCP`);
    assert.equal(await mcp.getAttribute('aria-current'), 'true');
    assert.equal(await windowMarked(page), true, 'a chip filters in-app');
    // The MCP chip matches the MCP category and every post tagged MCP.
    const titles = await page.locator('.blog-featured__title, .blog-card__title').allTextContents();
    assert.ok(titles.length >= 4, titles.join(' | '));
    assert.ok(titles.includes('How to Set Up Your First MCP Server in Claude Desktop'), 'category Tutorial, tag MCP');
    assert.ok(titles.includes('Securing AI Integrations: A Practical Guide to Prompt Injection'));
    assert.deepEqual(await axeViolations(page), [], 'with a chip pressed');
    await mcp.click();
    await page.waitForURL(`${BASE}/blog`);
    await page.getByText(/again to clear filter/).waitFor({ state: 'detached' });
    assert.equal(await chips.getByRole('link', { name: 'All', exact: true }).getAttribute('aria-current'), 'true');

    await search.fill('no such words anywhere');
    await page.getByRole('heading', { name: 'No blog posts found' }).waitFor();
    await page.waitForURL(`${BASE}/blog?search=no+such+words+anywhere`);
    await page.getByRole('link', { name: 'Clear Filters' }).click();
    await page.getByText('16 Articles').waitFor();
    assert.equal(await search.inputValue(), '');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('pages with the control and directly by address', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${BASE}/blog`);
    await waitForRoute(page);
    assert.equal(await cards(page).count(), 12);
    await markWindow(page);
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(`${BASE}/blog?page=2`);
    await page.getByText('Page 2 of 2').waitFor();
    assert.equal(await cards(page).count(), 3);
    assert.equal(await page.locator('.blog-featured').count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Next page' }).getAttribute('aria-disabled'), 'true');
    assert.equal(await page.locator('head link[rel="prev"]').getAttribute('href'), '/blog');
    assert.equal(await windowMarked(page), true, 'paging is in-app');
    await page.getByRole('link', { name: 'Page 1' }).click();
    await page.waitForURL(`${BASE}/blog`);
    await page.getByText('Page 1 of 2').waitFor();
    assert.equal(await cards(page).count(), 12);

    await page.goto(`${BASE}/blog?page=2`);
    await waitForRoute(page);
    assert.equal(await cards(page).count(), 3);
    assert.equal(await page.getByRole('link', { name: 'Page 2' }).getAttribute('aria-current'), 'page');
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('passes axe in the dark theme', async () => {
    const { page, errors } = await openPage(browser, { colorScheme: 'dark' });
    await page.clock.setFixedTime(new Date('2026-11-23T22:00:00'));
    await page.goto(`${BASE}/blog`);
    await waitForRoute(page);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    await page.getByRole('link', { name: 'AI History', exact: true }).click();
    await page.getByText('Click "AI History" again to clear filter').waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await page.goto(`${BASE}/blog/${HISTORY}`);
    await waitForRoute(page);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});

describe('blog post (/blog/:slug)', () => {
  it('is HTML first: the whole article and its head', async () => {
    const res = await fetch(`${BASE}/blog/${HISTORY}`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(
      html,
      /<title>How AI All Started: A Brief History of Artificial Intelligence \| AI Tools Blog<\/title>/,
    );
    assert.match(html, /<meta data-head name="robots" content="index,follow">/);
    assert.match(html, /"@type":"BlogPosting"/);
    assert.match(html, /<h2>The Question That Started It: Turing, 1950<\/h2>/);
    assert.match(html, /March 4, 2026/);
    // The whole body, to its last paragraph, with lists and links as elements.
    assert.match(
      html,
      /<strong><a href="\/"[^>]*>Browse the directory<\/a><\/strong> or keep reading on the <a href="\/blog"[^>]*>blog<\/a>\.<\/p>/,
    );
    assert.match(html, /<ol><li><strong>1997:<\/strong> IBM/);
    assert.match(
      html,
      /<a href="https:\/\/arxiv.org\/abs\/1706.03762" target="_blank" rel="noopener noreferrer">read the paper on arXiv<\/a>/,
    );
  });

  it('opens from the list in-app, follows an in-app link inside the post without a reload, and passes axe', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${BASE}/blog`);
    await waitForRoute(page);
    await markWindow(page);
    await openHistoryFromList(page);
    await page.waitForURL(`${BASE}/blog/${HISTORY}`);
    await waitForRoute(page);
    await historyShown(page);
    assert.equal(await windowMarked(page), true, 'the list opened the post in-app');
    // The cover the app rendered loads, from its WebP source.
    const cover = page.locator('img.blog-post__image');
    await page.waitForFunction(() => document.querySelector<HTMLImageElement>('img.blog-post__image')?.complete);
    const [width, chosen] = await cover.evaluate((el: HTMLImageElement) => [el.naturalWidth, el.currentSrc] as const);
    assert.ok(width > 0, 'the cover loaded');
    assert.match(chosen, new RegExp(`/covers/${HISTORY}\\.webp\\?v=\\w+(&w=\\d+)?$`));
    for (const text of ['AI History', 'March 4, 2026', 'By AI Tools Team', 'Share this article:'])
      assert.equal((await page.getByText(text, { exact: true }).count()) > 0, true, text);
    assert.deepEqual(await axeViolations(page), []);

    const external = page.locator('.blog-body a[href^="https://"]').first();
    assert.equal(await external.getAttribute('target'), '_blank');
    assert.equal(await external.getAttribute('rel'), 'noopener noreferrer');

    await page.locator('.blog-body').getByRole('link', { name: 'What Is the Model Context Protocol?' }).click();
    await page.waitForURL(`${BASE}/blog/what-is-model-context-protocol-mcp`);
    await page
      .getByRole('heading', { level: 1, name: 'What Is the Model Context Protocol (MCP)? A Plain-English Guide' })
      .waitFor();
    assert.equal(await windowMarked(page), true, 'the in-post link navigated without a full reload');
    // The head and the scroll position follow the render (effects): wait for them rather than race them.
    await page.waitForFunction(
      (t) => document.title === t,
      'What Is the Model Context Protocol (MCP)? A Plain-English Guide | AI Tools Blog',
    );
    await page.waitForFunction(() => window.scrollY === 0);

    await page.getByRole('link', { name: 'BLOG', exact: true }).click();
    await page.waitForURL(`${BASE}/blog`);
    await page.getByRole('heading', { level: 1, name: 'AI Tools Blog' }).waitFor();
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it("shows the post's loading screen and title while a slow answer is on its way, then the post", async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${BASE}/blog`);
    await waitForRoute(page);
    // The post's data answers a second and a half late.
    await page.route(`**/api/blog/public/posts/${HISTORY}*`, async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await openHistoryFromList(page);
    await page.getByRole('heading', { level: 1, name: 'Loading Blog Post' }).waitFor();
    assert.equal(await page.title(), `Loading ${HISTORY} | AI Tools Blog`);
    await historyShown(page);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('copies the link when the device cannot share', async () => {
    const { page, errors } = await openPage(browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
    await page.goto(`${BASE}/blog/what-is-model-context-protocol-mcp`);
    await waitForRoute(page);
    await page.evaluate(() => Object.defineProperty(navigator, 'share', { value: undefined, configurable: true }));
    // The alert blocks the page until answered, so it is answered from the handler.
    const message = new Promise<string>((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.message());
        void d.accept();
      }),
    );
    await page.getByRole('link', { name: 'Share' }).click();
    assert.equal(await message, 'Link copied to clipboard!');
    assert.equal(
      await page.evaluate(() => navigator.clipboard.readText()),
      `${BASE}/blog/what-is-model-context-protocol-mcp`,
    );
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('answers a missing slug and a draft with 404, the not-found title and noindex', async () => {
    for (const slug of ['no-such-post', 'real-world-ai-examples-everyday-life']) {
      const res = await fetch(`${BASE}/blog/${slug}`);
      assert.equal(res.status, 404, slug);
      const html = await res.text();
      assert.match(html, new RegExp(`<title>${slug} Blog Post Not Found \\| AI Tools Blog</title>`));
      assert.match(html, /<meta data-head name="robots" content="noindex,nofollow">/);
      assert.match(html, /Blog Post Not Found/);
    }
    const { page, errors } = await openPage(browser);
    await page.goto(`${BASE}/blog/no-such-post`);
    await waitForRoute(page);
    await page.getByRole('heading', { name: 'Blog Post Not Found' }).waitFor();
    assert.equal(await page.locator('main a[href="/blog"]').textContent(), 'Browse All Blog Posts');
    assert.equal(await page.locator('main a[href="/"]').textContent(), 'Back to AI Tools Directory');
    assert.deepEqual(await axeViolations(page), []);
    await page.getByRole('link', { name: 'Browse All Blog Posts' }).click();
    await page.waitForURL(`${BASE}/blog`);
    await page.getByRole('heading', { level: 1, name: 'AI Tools Blog' }).waitFor();
    // The 404 document itself is reported by the browser; nothing else may fail.
    assert.deepEqual(
      errors.filter((e) => !e.includes('status of 404')),
      [],
    );
    await page.context().close();
  });
});
