import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { holdBackRemote, launchBrowser, noJsPage, waitForRoute } from '../browser';

/** The directory without its code: with JavaScript off, and before the code arrives. */
const BASE = process.env.BASE_URL!;
const CODE_DELAY_MS = 4000;
let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser.close();
});

const count = (page: Page) => page.locator('.dir-count').textContent();
const cardNames = (page: Page) => page.locator('.dir-grid li h2').allTextContents();

describe('the directory without JavaScript', () => {
  it('searches by Enter, pages by link and filters by a category link, all rendered by the server', async () => {
    const page = await noJsPage(browser);
    await page.goto(`${BASE}/`);
    await page.getByPlaceholder('Search tools and servers...').fill('github');
    await page.keyboard.press('Enter');
    // the GET form also sends its sort and page-size selects
    await page.waitForURL((u) => u.searchParams.get('search') === 'github');
    assert.ok(
      (await cardNames(page)).some((n) => /GitHub/i.test(n)),
      'a GitHub tool is found',
    );
    assert.ok(!/^157 /.test((await count(page)) ?? ''), 'the list is filtered');

    await page.goto(`${BASE}/`);
    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Page 2' }).click();
    await page.waitForURL(`${BASE}/?page=2`);
    assert.match((await page.locator('.dir-showing').textContent()) ?? '', /^Showing 25 to 48 of \d+ results$/);
    assert.equal(await page.getByRole('link', { name: 'Page 2' }).getAttribute('aria-current'), 'page');

    await page.getByRole('list', { name: 'Category' }).getByRole('link', { name: 'Development' }).click();
    await page.waitForURL(`${BASE}/?category=Development`);
    assert.equal(
      await page
        .getByRole('list', { name: 'Category' })
        .getByRole('link', { name: 'Development' })
        .getAttribute('aria-current'),
      'true',
    );
    assert.equal(await page.getByText('Click "Development" again to clear filter').count(), 1);
    await page.context().close();
  });

  it("opens the home FAQ's entries and a tool's FAQ accordion, one answer at a time there", async () => {
    const page = await noJsPage(browser);
    await page.goto(`${BASE}/#faq`);
    const faq = page.locator('#faq');
    const answer = faq.getByText(/^The Model Context Protocol \(MCP\) is an open standard/);
    assert.equal(await answer.isVisible(), false);
    await faq.locator('summary', { hasText: 'What is an MCP server?' }).click();
    await faq.locator('summary', { hasText: 'What is the AI Tools Directory?' }).click();
    assert.equal(await answer.isVisible(), true);
    assert.equal(await faq.locator('details[open]').count(), 2, 'home entries open independently');
    // An entry's obfuscated address leads, without script, to the contact page, which gives it.
    const email = faq.locator('a.dir-faq__email').first();
    await email.evaluate((a) => a.closest('details')!.setAttribute('open', ''));
    assert.match((await email.getAttribute('aria-label'))!, /^Show email address \w+\[at\]/);
    await email.click();
    await page.waitForURL(`${BASE}/contact`);

    await page.goto(`${BASE}/tool/cursor`);
    const questions = page.getByRole('region', { name: 'Frequently Asked Questions' }).locator('summary');
    await questions.nth(0).click();
    await questions.nth(1).click();
    const open = page.getByRole('region', { name: 'Frequently Asked Questions' }).locator('details[open]');
    assert.equal(await open.count(), 1, 'one answer open at a time');
    assert.equal(await open.locator('summary').textContent(), await questions.nth(1).textContent());
    await page.context().close();
  });

  it("shows a tool's other tags, goes back to the directory, and follows the system's dark preference", async () => {
    const page = await noJsPage(browser, { colorScheme: 'dark' });
    await page.goto(`${BASE}/tool/chatgpt`);
    const more = page.locator('.dir-taglist__more');
    const extra = more.getByRole('list', { name: 'More tags' });
    assert.equal(await extra.isVisible(), false);
    await more.getByText(/^Show \d+ more tags$/).click();
    assert.equal(await extra.isVisible(), true);
    assert.ok((await extra.getByRole('listitem').count()) > 0);
    await more.getByText('Show less').click();
    assert.equal(await extra.isVisible(), false);
    // Without a saved choice and without script, the system's preference decides the theme.
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.notEqual(background, 'rgb(248, 250, 252)', 'the dark theme, not the light one');
    // The theme toggle needs script: without it, it is not offered.
    assert.equal(await page.locator('.theme-controls').isVisible(), false);
    await page.getByRole('link', { name: '← Back to Directory' }).click();
    await page.waitForURL(`${BASE}/`);
    await page.context().close();
  });

  it('shares a tool by a link to an email with its name and canonical address', async () => {
    const page = await noJsPage(browser);
    await page.goto(`${BASE}/tool/cursor`);
    const href = (await page.getByRole('link', { name: 'Share' }).getAttribute('href'))!;
    assert.match(href, /^mailto:\?/);
    const email = new URLSearchParams(href.slice('mailto:?'.length));
    assert.equal(email.get('subject'), 'Cursor');
    assert.match(email.get('body')!, /\n\nhttps:\/\/[^/\s]+\/tool\/cursor$/);
    await page.context().close();
  });
});

describe('the directory before its code arrives', () => {
  it('keeps text typed into the search before hydration and applies it once the code runs', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await holdBackRemote(page, 'directory', CODE_DELAY_MS);
    await page.goto(`${BASE}/`, { waitUntil: 'commit' });
    const box = page.getByPlaceholder('Search tools and servers...');
    await box.waitFor();
    assert.notEqual(
      await page.evaluate(() => document.documentElement.dataset.routeReady),
      '/',
      'typed before the code ran',
    );
    await box.pressSequentially('github');
    await waitForRoute(page);
    await page.waitForURL(`${BASE}/?search=github`);
    assert.equal(await box.inputValue(), 'github', 'the typed text survived hydration');
    // and it filters the list (the page's data follows the address within a render)
    await page.waitForFunction(
      () => !/^157 /.test(document.querySelector('.dir-count')?.textContent ?? ''),
      undefined,
      { timeout: 5_000 },
    );
    assert.match((await count(page)) ?? '', /^\d+ tools? found$/);
    await context.close();
  });

  it('follows a chip clicked before the code arrives', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await holdBackRemote(page, 'directory', CODE_DELAY_MS);
    await page.goto(`${BASE}/`, { waitUntil: 'commit' });
    await page.getByRole('list', { name: 'Category' }).getByRole('link', { name: 'Development' }).click();
    await page.waitForURL(`${BASE}/?category=Development`);
    await waitForRoute(page);
    assert.equal(
      await page
        .getByRole('list', { name: 'Category' })
        .getByRole('link', { name: 'Development' })
        .getAttribute('aria-current'),
      'true',
    );
    await context.close();
  });

  it('keeps a FAQ entry opened before the code arrives open once it runs', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await holdBackRemote(page, 'directory', CODE_DELAY_MS);
    await page.goto(`${BASE}/#faq`, { waitUntil: 'commit' });
    const question = page.locator('#faq summary', { hasText: 'What is an MCP server?' });
    await question.click();
    assert.notEqual(await page.evaluate(() => document.documentElement.dataset.routeReady), '/', 'before the code ran');
    await waitForRoute(page);
    assert.equal(await question.evaluate((el) => (el.parentElement as HTMLDetailsElement).open), true);
    await context.close();
  });
});
