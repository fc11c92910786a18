import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from 'playwright-core';
import { axeViolations, launchBrowser, noJsPage, openPage, waitForRoute } from '../browser';
import { queryDb } from '../db';

const BASE = process.env.BASE_URL!;
const RUN = `nojs-${Date.now().toString(36)}`;
let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser.close();
});

const count = (table: string, email: string) =>
  queryDb<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE email = ?`, email)[0].n;

describe('forms without JavaScript (they post to their own page)', () => {
  it('/contact sends: the success banner after the redirect, one row, and a refresh stores nothing twice', async () => {
    const page = await noJsPage(browser);
    const sender = `ada-${RUN}@example.com`;
    await page.goto(`${BASE}/contact`);
    const box = (name: string) => page.getByRole('textbox', { name, exact: true });
    await box('Name').fill('Ada Lovelace');
    await box('Email').fill(sender);
    await page.getByRole('combobox', { name: 'Subject' }).selectOption('partnership');
    await box('Message').fill('Sent without scripts');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.waitForURL(`${BASE}/contact?sent=1`);
    await page.getByText('Message Sent Successfully!').waitFor();
    assert.equal(await box('Name').inputValue(), '', 'the form is empty again');
    assert.deepEqual(queryDb('SELECT name, subject, message FROM contact_messages WHERE email = ?', sender), [
      { name: 'Ada Lovelace', subject: 'partnership', message: 'Sent without scripts' },
    ]);
    await page.reload();
    await page.getByText('Message Sent Successfully!').waitFor();
    assert.equal(count('contact_messages', sender), 1, 'the refresh re-sent nothing');
    await page.context().close();
  });

  it('/submit with empty fields shows its three required-field messages and stores nothing', async () => {
    const page = await noJsPage(browser);
    await page.goto(`${BASE}/submit`);
    const before = queryDb<{ n: number }>('SELECT COUNT(*) AS n FROM submissions')[0].n;
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Submit Tool' }).click(),
    ]);
    assert.equal(answer.status(), 400);
    for (const msg of ['Name is required', 'Email is required', 'Website URL is required'])
      await page.getByText(msg).waitFor();
    assert.equal(queryDb<{ n: number }>('SELECT COUNT(*) AS n FROM submissions')[0].n, before);
    await page.context().close();
  });

  it('/submit keeps the visitor\'s values with a field error, then stores one row; a refresh of "Thank You" stores nothing twice', async () => {
    const page = await noJsPage(browser);
    const owner = `owner-${RUN}@example.com`;
    await page.goto(`${BASE}/submit`);
    await page.getByLabel('Tool Name').fill(`No Script Tool ${RUN}`);
    await page.getByLabel('Your Email').fill(owner);
    await page.getByLabel('Website URL').fill('noscript.example');
    await page.getByRole('radio', { name: /MCP Server/ }).check();
    await page.getByRole('button', { name: 'Submit Tool' }).click();
    await page.getByText('Please enter a valid URL (starting with http:// or https://)').waitFor();
    assert.equal(await page.getByLabel('Tool Name').inputValue(), `No Script Tool ${RUN}`);
    assert.equal(await page.getByRole('radio', { name: /MCP Server/ }).isChecked(), true);
    assert.equal(count('submissions', owner), 0);

    await page.getByLabel('Website URL').fill('https://noscript.example');
    await page.getByRole('button', { name: 'Submit Tool' }).click();
    await page.waitForURL(`${BASE}/submit?submitted=1`);
    await page.getByRole('heading', { name: 'Thank You' }).waitFor();
    assert.deepEqual(queryDb('SELECT name, website_url, tool_type, status FROM submissions WHERE email = ?', owner), [
      {
        name: `No Script Tool ${RUN}`,
        website_url: 'https://noscript.example',
        tool_type: 'mcp-server',
        status: 'pending',
      },
    ]);
    await page.reload();
    await page.getByRole('heading', { name: 'Thank You' }).waitFor();
    assert.equal(count('submissions', owner), 1, 'the refresh re-submitted nothing');
    await page.context().close();
  });

  it('the early-access form signs up and then goes home, and "Close" closes the dialog', async () => {
    const page = await noJsPage(browser);
    const address = `ads-${RUN}@brand.example`;
    await page.goto(`${BASE}/advertise`);
    await page.getByLabel('Email address').fill(address);
    await page.getByRole('button', { name: 'Get Early Access' }).click();
    await page.waitForURL(`${BASE}/advertise?subscribed=1`);
    await page.getByRole('heading', { name: "You're all set!" }).waitFor();
    assert.deepEqual(queryDb('SELECT email, type, source FROM early_access WHERE email = ?', address), [
      { email: address, type: 'early_access_advertising', source: 'advertise_page_modal' },
    ]);
    // Without script the browser's own refresh takes the visitor home after 2 seconds.
    await page.waitForURL(`${BASE}/`, { timeout: 15_000 });

    await page.goto(`${BASE}/advertise`);
    await page.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL(`${BASE}/advertise?waitlist=closed`);
    assert.equal(await page.getByRole('dialog').count(), 0);
    await page.getByRole('button', { name: 'Join the Waitlist' }).click();
    await page.getByRole('dialog', { name: 'Advertising is launching soon' }).waitFor();
    await page.context().close();
  });
});

describe('forms before their code arrives', () => {
  it('text typed into /contact before hydration survives it, and the submit after hydration sends it', async () => {
    const { page, errors } = await openPage(browser);
    // Hold back the forms remote's code (not its stylesheet) for about 4 s.
    await page.route('**/remotes/forms/**', async (route) => {
      if (route.request().resourceType() !== 'stylesheet') await sleep(4000);
      await route.continue();
    });
    const sender = `early-${RUN}@example.com`;
    await page.goto(`${BASE}/contact`, { waitUntil: 'commit' });
    const box = (name: string) => page.getByRole('textbox', { name, exact: true });
    await box('Name').fill('Early Typist');
    await box('Email').fill(sender);
    await page.getByRole('combobox', { name: 'Subject' }).selectOption('bug-report');
    await box('Message').fill('Typed before the code arrived');
    assert.notEqual(
      await page.evaluate(() => document.documentElement.dataset.routeReady),
      '/contact',
      'typed before hydration',
    );
    await waitForRoute(page);
    assert.equal(await box('Name').inputValue(), 'Early Typist');
    assert.equal(await box('Email').inputValue(), sender);
    assert.equal(await page.getByRole('combobox', { name: 'Subject' }).inputValue(), 'bug-report');
    assert.equal(await box('Message').inputValue(), 'Typed before the code arrived');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('Message Sent Successfully!').waitFor();
    assert.deepEqual(queryDb('SELECT name, subject, message FROM contact_messages WHERE email = ?', sender), [
      { name: 'Early Typist', subject: 'bug-report', message: 'Typed before the code arrived' },
    ]);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});

describe('the advertise dialog', () => {
  it('closes with its Close button and by a click outside it', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${BASE}/advertise`);
    await waitForRoute(page);
    const dialog = page.getByRole('dialog', { name: 'Advertising is launching soon' });
    await page.getByRole('button', { name: 'Close' }).click();
    assert.equal(await dialog.count(), 0);
    assert.equal(page.url(), `${BASE}/advertise`, 'closed in place, no page load');
    // focus goes back to the page's own control once the dialog has gone
    await page.waitForFunction(() => document.activeElement?.textContent === 'Join the Waitlist', undefined, {
      timeout: 5000,
    });
    await page.getByRole('button', { name: 'Join the Waitlist' }).click();
    await dialog.waitFor();
    assert.deepEqual(await axeViolations(page), [], 'with the Close control');
    await page.mouse.click(8, 8);
    assert.equal(await dialog.count(), 0);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
