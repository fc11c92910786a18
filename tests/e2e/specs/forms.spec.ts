import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { axeViolations, launchBrowser, openPage, waitForRoute } from '../browser';
import { runApiScript } from '../harness';
import { queryDb } from '../db';

const BASE = process.env.BASE_URL!;
const RUN = Date.now().toString(36);
let browser: Browser;

/** `pnpm moderate …`, without blocking this process: a blocked event loop would reuse a kept-alive socket the
 *  server closed meanwhile ("other side closed"). */
function moderate(...args: string[]) {
  return runApiScript({}, 'src/moderation/cli.ts', args);
}

before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser.close();
});

describe('forms remote', () => {
  const toolName = `E2E Vector Helper ${RUN}`;
  const submitter = `owner-${RUN}@example.com`;

  it('renders the three pages as HTML first, with their titles and canonical links', async () => {
    for (const [path, title, text] of [
      ['/submit', 'Submit Your Tool | AI Tools Directory', 'Share your AI tool or MCP server with our community'],
      ['/contact', 'Contact Us | AI Tools Directory', 'Privacy &amp; Legal'],
      [
        '/advertise',
        'Advertise Your AI Tool | AI Tools Directory',
        'You&#x27;re all set!|Advertising is launching soon',
      ],
    ]) {
      const res = await fetch(`${BASE}${path}`);
      assert.equal(res.status, 200, path);
      const html = await res.text();
      assert.ok(html.includes(`<title>${title}</title>`), `${path} title`);
      assert.match(html, new RegExp(text), path);
      assert.match(html, new RegExp(`<link data-head rel="canonical" href="https://localhost:\\d+${path}">`));
      assert.match(html, /<meta data-head name="robots" content="index,follow">/);
    }
  });

  it('submits a tool for real: errors first, then "Thank You", and the row is stored pending', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${BASE}/submit`);
    await waitForRoute(page);
    assert.deepEqual(await axeViolations(page), []);
    await page.getByRole('button', { name: 'Submit Tool' }).click();
    for (const msg of ['Name is required', 'Email is required', 'Website URL is required'])
      await page.getByText(msg).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'the error state is accessible too');
    await page.getByLabel('Tool Name').fill(toolName);
    assert.equal(await page.getByText('Name is required').count(), 0, 'editing clears the field error');
    await page.getByLabel('Your Email').fill(submitter);
    await page.getByLabel('Website URL').fill('https://vector-helper.example');
    await page.getByRole('radio', { name: /MCP Server/ }).check();
    await page.getByLabel('Description').fill("Finds vectors, helpfully: $& and $' stay as typed.");
    await page.getByLabel('Message to the reviewers').fill('Please review');
    assert.equal(await page.getByText('13/500').count(), 1);
    await page.getByRole('button', { name: 'Submit Tool' }).click();
    await page.getByRole('heading', { name: 'Thank You' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Back to Directory' }).getAttribute('href'), '/');
    const rows = queryDb<Record<string, unknown>>('SELECT * FROM submissions WHERE email = ?', submitter);
    assert.equal(rows.length, 1);
    assert.deepEqual(
      { ...rows[0], id: undefined, created_at: undefined },
      {
        id: undefined,
        name: toolName,
        email: submitter,
        website_url: 'https://vector-helper.example',
        tool_type: 'mcp-server',
        description: "Finds vectors, helpfully: $& and $' stay as typed.",
        message: 'Please review',
        status: 'pending',
        created_at: undefined,
        reviewed_at: null,
        tool_slug: null,
      },
    );
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('approving the submission with the moderation command publishes it in the directory', async () => {
    const listed = await moderate('list', '--status', 'pending');
    assert.equal(listed.status, 0, listed.stderr);
    const line = listed.stdout.split('\n').find((l) => l.includes(toolName));
    assert.ok(line, `listed: ${listed.stdout}`);
    const id = /^#(\d+) \[pending\]/.exec(line)![1];
    const approved = await moderate('approve', id);
    assert.equal(approved.status, 0, approved.stderr);
    const slug = `e2e-vector-helper-${RUN}`;
    assert.match(approved.stdout, new RegExp(`published at /tool/${slug}`));
    assert.notEqual((await moderate('approve', id)).status, 0, 'a second approval is refused');
    assert.notEqual((await moderate('reject', '999999')).status, 0, 'unknown ids are an error');

    const detail = await fetch(`${BASE}/tool/${slug}`);
    assert.equal(detail.status, 200);
    const detailHtml = await detail.text();
    assert.ok(detailHtml.includes(toolName), 'the tool page names the tool');
    assert.ok(
      detailHtml.includes('$&amp; and $&#x27; stay as typed.'),
      'visitor text reaches the page escaped and unchanged',
    );
    const search = await fetch(`${BASE}/?search=${encodeURIComponent(toolName)}`);
    assert.ok((await search.text()).includes(toolName), 'the server HTML of the search lists the tool');

    const { page, errors } = await openPage(browser);
    await page.goto(`${BASE}/tool/${slug}`);
    await waitForRoute(page);
    assert.equal(await page.getByRole('heading', { level: 1, name: toolName }).count(), 1);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('sends a contact message for real: the success banner, a cleared form, a stored row', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${BASE}/contact`);
    await waitForRoute(page);
    assert.deepEqual(await axeViolations(page), []);
    const sender = `ada-${RUN}@example.com`;
    const box = (name: string) => page.getByRole('textbox', { name, exact: true });
    await box('Name').fill('Ada Lovelace');
    await box('Email').fill(sender);
    await page.getByRole('combobox', { name: 'Subject' }).selectOption('partnership');
    await box('Message').fill('Shall we partner?');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('Message Sent Successfully!').waitFor();
    assert.equal(await box('Name').inputValue(), '');
    assert.equal(await box('Message').inputValue(), '');
    assert.deepEqual(queryDb('SELECT name, subject, message FROM contact_messages WHERE email = ?', sender), [
      { name: 'Ada Lovelace', subject: 'partnership', message: 'Shall we partner?' },
    ]);
    assert.deepEqual(await axeViolations(page), [], 'the success banner is accessible');
    const csv = await moderate('contacts', '--csv');
    assert.equal(csv.status, 0, csv.stderr);
    assert.ok(csv.stdout.includes(`Ada Lovelace,${sender},partnership`));
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('joins the advertising early-access list: accessible modal, stored record, then home with replace', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${BASE}/contact`);
    await waitForRoute(page);
    await page.goto(`${BASE}/advertise`);
    await waitForRoute(page);
    const dialog = page.getByRole('dialog', { name: 'Advertising is launching soon' });
    await dialog.waitFor();
    assert.equal(
      await page.evaluate(() => document.activeElement?.id),
      'early-access-email',
      'focus moved into the dialog',
    );
    assert.deepEqual(await axeViolations(page), [], 'with the modal open');
    await page.keyboard.press('Escape');
    assert.equal(await dialog.count(), 0);
    assert.deepEqual(await axeViolations(page), [], 'with the modal closed');
    await page.getByRole('button', { name: 'Join the Waitlist' }).click();

    const address = `ads-${RUN}@brand.example`;
    await page.getByLabel('Email address').fill(address);
    await page.getByRole('button', { name: 'Get Early Access' }).click();
    await page.getByRole('heading', { name: "You're all set!" }).waitFor();
    assert.deepEqual(queryDb('SELECT email, type, source FROM early_access WHERE email = ?', address), [
      { email: address, type: 'early_access_advertising', source: 'advertise_page_modal' },
    ]);
    const local = await page.evaluate(() => JSON.parse(localStorage.getItem('earlyAccessSignup') ?? 'null'));
    assert.equal(local.email, address);
    await page.waitForURL(`${BASE}/`, { timeout: 5000 });
    // The advertise entry was replaced: going back lands on /contact.
    await page.goBack();
    await page.waitForURL(`${BASE}/contact`);
    const subscribers = await moderate('subscribers', '--csv');
    assert.ok(subscribers.stdout.includes(`${address},early_access_advertising,advertise_page_modal`));
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('passes the accessibility audit on all three pages in both themes', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { page, errors } = await openPage(browser, { theme });
      for (const path of ['/submit', '/contact', '/advertise']) {
        await page.goto(`${BASE}${path}`);
        await waitForRoute(page);
        assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
        assert.deepEqual(await axeViolations(page), [], `${path} in ${theme}`);
      }
      assert.deepEqual(errors, []);
      await page.context().close();
    }
  });

  it('"Go Back" in the modal leads to /', async () => {
    const { page, errors } = await openPage(browser, { colorScheme: 'dark' });
    await page.goto(`${BASE}/advertise`);
    await waitForRoute(page);
    assert.deepEqual(await axeViolations(page), []);
    await page.getByRole('button', { name: 'Go Back' }).click();
    await page.waitForURL(`${BASE}/`);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
