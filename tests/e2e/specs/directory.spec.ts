import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import { axeViolations, launchBrowser, openPage, waitForRoute } from '../browser';

const BASE = process.env.BASE_URL!;
let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser.close();
});

/** Console errors with where they came from; a tool's screenshot that 404s (and then hides) is expected. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.location().url.includes('/screenshots/'))
      errors.push(`${m.text()} @ ${m.location().url}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return errors;
}

/** Server HTML as text: React's text separators removed; assertions print a short message, not the page. */
const pageText = (html: string) => html.replace(/<!-- -->/g, '');
function assertHas(html: string, re: RegExp) {
  assert.ok(re.test(html), `expected the HTML to match ${re}`);
}

const searchBox = (page: Page) => page.getByPlaceholder('Search tools and servers...');
const cards = (page: Page) => page.locator('.dir-card');

describe('directory: HTML first', () => {
  it('serves / with the first page of cards, head and an ItemList of 50 tools, without JavaScript', async () => {
    const res = await fetch(`${BASE}/`);
    assert.equal(res.status, 200);
    const html = pageText(await res.text());
    assert.equal(html.match(/<article class="dir-card"/g)?.length, 24);
    assertHas(html, /Showing 1 to 24 of \d{3} results/);
    assertHas(html, /<title>AI Tools Directory - Discover 150\+ AI Tools &amp; MCP Servers<\/title>/);
    assertHas(html, /<meta data-head name="robots" content="index,follow">/);
    assertHas(html, /<link data-head rel="canonical" href="https:\/\/localhost:\d+">/);
    const ld = JSON.parse(html.match(/<script data-head type="application\/ld\+json">(.*?)<\/script>/)![1]);
    assert.equal(ld['@type'], 'ItemList');
    assert.equal(ld.itemListElement.length, 50);
    assertHas(html, /id="faq"/);
  });

  it('carries only the page on screen in its hydration data, not the whole catalogue', async () => {
    const html = await (await fetch(`${BASE}/`)).text();
    const state = JSON.parse(html.match(/<script type="application\/json" id="__PAGE_STATE__">(.*?)<\/script>/s)![1]);
    const home = state.router.loaderData['directory/Home'];
    assert.equal(home.tools.length, 24);
    assert.ok(home.catalogue >= 150 && home.total === home.catalogue, 'the totals say how large the catalogue is');
  });

  it('renders the query of the URL on the server', async () => {
    const html = pageText(await (await fetch(`${BASE}/?category=MCP%20Servers&page=2`)).text());
    assertHas(html, /Showing 25 to \d+ of \d+ results/);
    assert.ok(!/<span class="badge dir-badge--category">Development<\/span>/.test(html), 'only MCP servers');
  });

  it('serves a tool page with its head and SoftwareApplication data', async () => {
    const res = await fetch(`${BASE}/tool/cursor`);
    assert.equal(res.status, 200);
    const html = pageText(await res.text());
    assertHas(html, /<h1>Cursor<\/h1>/);
    assertHas(html, /<link data-head rel="canonical" href="https:\/\/localhost:\d+\/tool\/cursor">/);
    assertHas(html, /<meta data-head name="robots" content="index,follow">/);
    const ld = JSON.parse(html.match(/<script data-head type="application\/ld\+json">(.*?)<\/script>/)![1]);
    assert.equal(ld['@type'], 'SoftwareApplication');
    assert.ok(ld.aggregateRating.ratingValue > 0);
  });
});

describe('directory: browsing', () => {
  it('search → category → paginate → open detail → Back restores page and scroll', async () => {
    const { page } = await openPage(browser);
    const errors = watchErrors(page);
    await page.goto(`${BASE}/`);
    await waitForRoute(page);
    await searchBox(page).fill('server');
    await page.waitForURL(/\?search=server$/);
    await page.getByRole('list', { name: 'Category' }).getByRole('link', { name: 'MCP Servers' }).click();
    await page.waitForURL(/category=MCP\+Servers/);
    const status = page.locator('.dir-showing');
    await page
      .getByText(/tools? found/)
      .filter({ hasNotText: '157' })
      .waitFor();
    assert.match((await status.textContent()) ?? '', /^Showing 1 to 24 of (2[5-9]|[3-9]\d) results$/);
    await page.getByRole('link', { name: 'Page 2' }).click();
    await page.waitForURL(/page=2/);
    await page.locator('.dir-showing', { hasText: /^Showing 25 to / }).waitFor();
    const listUrl = page.url();
    const card = cards(page).nth(3);
    await card.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 150));
    const scrolled = await page.evaluate(() => window.scrollY);
    assert.ok(scrolled > 300);
    const name = (await card.locator('.dir-card__name').textContent())!;
    await card.locator('.dir-card__desc').click();
    await page.waitForURL(/\/tool\//);
    await waitForRoute(page);
    // An in-app navigation loads the tool in the browser ("Loading AI Tool" first).
    await page.locator('h1', { hasText: name }).waitFor();
    await page.getByRole('link', { name: '← Back to Directory' }).click();
    await page.waitForURL(listUrl);
    await waitForRoute(page);
    await page.waitForFunction((y) => Math.abs(window.scrollY - y) < 5, scrolled);
    assert.match((await status.textContent()) ?? '', /^Showing 25 to /);
    assert.equal(await searchBox(page).inputValue(), 'server');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('opens a card below the first row in the app when it is clicked as soon as the page is ready', async () => {
    const { page } = await openPage(browser);
    const errors = watchErrors(page);
    await page.goto(`${BASE}/`);
    await waitForRoute(page);
    await page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));
    const card = cards(page).nth(10);
    const name = (await card.locator('.dir-card__name').textContent())!;
    await card.getByRole('link', { name: `View Details: ${name}` }).click();
    await page.waitForURL(/\/tool\//);
    await page.locator('h1', { hasText: name }).waitFor();
    assert.equal(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument), true);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('loads a query directly: filters, scrolls to the grid and clamps the page', async () => {
    const { page } = await openPage(browser);
    const errors = watchErrors(page);
    await page.goto(`${BASE}/?category=Development&page=2`);
    await waitForRoute(page);
    assert.equal(
      await page
        .getByRole('list', { name: 'Category' })
        .getByRole('link', { name: 'Development' })
        .getAttribute('aria-current'),
      'true',
    );
    // Development fits one page: the page is clamped and the address corrected with replace
    await page.waitForURL(`${BASE}/?category=Development`);
    await page.waitForFunction(() => window.scrollY > 100);
    assert.equal(await page.locator('.dir-pagination').count(), 0);
    const count = await cards(page).count();
    assert.ok(count >= 5 && count <= 24);
    for (const badge of await page.locator('.dir-card .dir-badge--category').allTextContents())
      assert.equal(badge, 'Development');
    // a valid page survives the round trip
    await page.goto(`${BASE}/?category=MCP%20Servers&page=2`);
    await waitForRoute(page);
    assert.match((await page.locator('.dir-showing').textContent()) ?? '', /^Showing 25 to /);
    assert.equal(new URL(page.url()).search, '?category=MCP%20Servers&page=2');
    assert.equal(await page.getByRole('link', { name: 'Page 2' }).getAttribute('aria-current'), 'page');
    // replace, not push: one history entry per load
    assert.equal(await page.evaluate(() => history.length), 3);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('shows the 5 built-in tools when the API is down on an in-app navigation', async () => {
    const { page } = await openPage(browser);
    const errors = watchErrors(page);
    await page.goto(`${BASE}/privacy`);
    await waitForRoute(page);
    await page.route('**/api/tools/query*', (r) => r.abort('connectionrefused'));
    await page.locator('footer').getByRole('link', { name: 'Home', exact: true }).click();
    await waitForRoute(page);
    await page.getByText('5 tools found').waitFor();
    assert.equal(await cards(page).count(), 5);
    assert.ok(
      errors.some((e) => e.includes('Error fetching AI tools')),
      'the failure is logged',
    );
    await page.context().close();
  });

  it('answers a missing tool with 404, noindex and the not-found screen', async () => {
    const res = await fetch(`${BASE}/tool/no-such-tool`);
    assert.equal(res.status, 404);
    const html = pageText(await res.text());
    assertHas(html, /AI Tool Not Found/);
    assertHas(html, /<meta data-head name="robots" content="noindex,nofollow">/);
    const { page } = await openPage(browser);
    const errors = watchErrors(page);
    await page.goto(`${BASE}/tool/no-such-tool`);
    await waitForRoute(page);
    assert.equal(
      await page
        .getByText(
          'The AI tool "no-such-tool" could not be found. It may have been moved, deleted, or the URL might be incorrect.',
        )
        .count(),
      1,
    );
    await page.getByRole('link', { name: 'Browse All AI Tools' }).click();
    await page.waitForURL(`${BASE}/`);
    // the 404 document itself is reported by the browser
    assert.deepEqual(
      errors.filter((e) => !e.includes('status of 404')),
      [],
    );
    await page.context().close();
  });
});

describe('directory: accessibility', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`passes axe on / and /tool/cursor in the ${theme} theme, without console errors`, async () => {
      const { page } = await openPage(browser, { theme });
      const errors = watchErrors(page);
      await page.goto(`${BASE}/`);
      await waitForRoute(page);
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
      // open an FAQ entry so its answer is audited too
      await page.locator('summary', { hasText: 'What is an MCP server?' }).click();
      assert.deepEqual(await axeViolations(page), []);
      await page.goto(`${BASE}/tool/cursor`);
      await waitForRoute(page);
      await page.locator('.dir-taglist__more summary').click();
      assert.deepEqual(await axeViolations(page), []);
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }
});

describe('directory: keyboard', () => {
  it('works the FAQ accordions and the category bar from the keyboard, with a visible focus ring', async () => {
    const { page } = await openPage(browser);
    const errors = watchErrors(page);
    await page.goto(`${BASE}/#faq`);
    await waitForRoute(page);
    const isOpen = (summary: Locator) => summary.evaluate((el) => (el.parentElement as HTMLDetailsElement).open);
    const question = page.locator('#faq summary', { hasText: 'What is an MCP server?' });
    const other = page.locator('#faq summary', { hasText: 'What is the AI Tools Directory?' });
    await question.focus();
    assert.equal(await isOpen(question), false);
    await page.keyboard.press('Enter');
    assert.equal(await isOpen(question), true);
    const outline = await question.evaluate((el) => getComputedStyle(el).outlineStyle);
    assert.notEqual(outline, 'none', 'the focused control shows a focus ring');
    await other.focus();
    await page.keyboard.press('Space');
    assert.equal(await isOpen(other), true);
    assert.equal(await isOpen(question), true, 'home FAQ entries open independently');
    await question.focus();
    await page.keyboard.press('Space');
    assert.equal(await isOpen(question), false);

    const development = page.getByRole('list', { name: 'Category' }).getByRole('link', { name: 'Development' });
    await development.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/category=Development/);

    await page.goto(`${BASE}/tool/cursor`);
    await waitForRoute(page);
    const detailFaq = page.getByRole('region', { name: 'Frequently Asked Questions' }).locator('summary');
    assert.ok((await detailFaq.count()) >= 2, 'the seed gives Cursor several FAQ entries');
    await detailFaq.nth(0).focus();
    await page.keyboard.press('Enter');
    assert.equal(await isOpen(detailFaq.nth(0)), true);
    await detailFaq.nth(1).focus();
    await page.keyboard.press('Enter');
    assert.equal(await isOpen(detailFaq.nth(1)), true);
    assert.equal(await isOpen(detailFaq.nth(0)), false, 'one detail FAQ open at a time');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
