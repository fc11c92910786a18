import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { axeViolations, launchBrowser, noteRouteReady, openPage, waitForRoute, waitForSettled } from '../browser';

const BASE = process.env.BASE_URL!;
const RELEASES_DIR = process.env.RELEASES_DIR!;
let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser.close();
});

describe('shell and legal remote', () => {
  it('serves /privacy as HTML first: the policy text and title without JavaScript', async () => {
    const res = await fetch(`${BASE}/privacy`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<title>Privacy Policy \| AI Tools Directory<\/title>/);
    assert.match(html, /This website is cookieless/);
    assert.match(html, /processed in the EU/);
    assert.match(html, /Anonymized IP address/);
    assert.match(html, /children under 13/);
    assert.match(html, /<link data-head rel="canonical" href="https:\/\/localhost:\d+\/privacy">/);
    // Nothing blocks the first paint: the shell's and the remote's CSS come inline, each naming its file.
    assert.match(html, /<style data-href="\/remotes\/legal\/[^"]+\.css">/, 'the remote CSS is inlined by the server');
    assert.match(html, /<style data-href="\/assets\/[^"]+\.css">/, "the shell's CSS is inlined");
    assert.doesNotMatch(html, /<link rel="stylesheet"/, 'no render-blocking stylesheet');
    assert.match(
      html,
      /"legal":\{"id":"[^"]+","entry":"\/remotes\/legal\/[^"]+\/remoteEntry\.js"/,
      'the page names the release it was rendered with',
    );
    // A short waterfall: the page lists its code (the shell's entry, then the route's federation entry and module
    // chunks), fetched in one wave after the first paint, not discovered one by one; no module element blocks.
    const code = JSON.parse(
      html.match(/<script type="application\/json" id="__PAGE_CODE__">([^<]+)<\/script>/)?.[1] ?? '[]',
    ) as string[];
    assert.match(code[0] ?? '', /^\/assets\/index-[\w-]+\.js$/);
    assert.ok(
      code.some((f) => /^\/remotes\/legal\/[^/]+\/remoteEntry\.js$/.test(f)),
      code.join(),
    );
    assert.ok(
      code.some((f) => /^\/remotes\/legal\/[^/]+\/__federation_expose_Privacy-[\w-]+\.js$/.test(f)),
      code.join(),
    );
    assert.doesNotMatch(html, /<script type="module"|rel="modulepreload"/);
  });

  it('hydrates /privacy without errors, with one React, and passes an accessibility audit', async () => {
    const { page, errors, requests } = await openPage(browser);
    await page.goto(`${BASE}/privacy`);
    await waitForRoute(page);
    assert.equal(await page.locator('h1').textContent(), 'Privacy Policy');
    // The page painted before any of its code was asked for (shell/src/remotes/pageCode.ts).
    const { paint, firstCode } = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      firstCode: Math.min(
        ...performance
          .getEntriesByType('resource')
          .filter((r) => r.name.endsWith('.js'))
          .map((r) => r.startTime),
      ),
    }));
    assert.ok(
      paint !== undefined && paint <= firstCode,
      `first paint at ${paint} ms, first module asked for at ${firstCode} ms`,
    );
    const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
    assert.equal(await page.locator('.legal__updated').textContent(), `Last updated: ${today}`);
    assert.deepEqual(errors, []);
    // Shared singletons: React and the router come from the shell's build only, never from a remote.
    const fromRemotes = requests.filter(
      (u) => u.includes('/remotes/') && /__federation_shared_(react|react-dom|react-router-dom|zustand)-/.test(u),
    );
    assert.deepEqual(fromRemotes, []);
    assert.ok(
      requests.some((u) => /\/remotes\/legal\/.+__federation_expose_Privacy/.test(u)),
      'the route came through the federated module',
    );
    // After visiting routes of every remote, the share scope still holds exactly one version of each package.
    for (const name of ['Home', 'Blog', 'Submit Tool', 'Privacy Policy']) {
      await page.locator('footer').getByRole('link', { name, exact: true }).click();
      await waitForRoute(page);
    }
    const scope = await page.evaluate(() =>
      Object.fromEntries(
        Object.entries(
          (globalThis as { __federation_shared__?: { default: Record<string, object> } }).__federation_shared__
            ?.default ?? {},
        ).map(([k, v]) => [k, Object.keys(v).length]),
      ),
    );
    assert.deepEqual(scope, { react: 1, 'react-dom': 1, 'react-router-dom': 1, zustand: 1 });
    assert.deepEqual(
      requests.filter((u) => u.includes('/remotes/') && /__federation_shared_/.test(u)),
      [],
      'no remote downloaded its own copy of a shared package',
    );
    // The remote's stylesheet applies inside the host.
    const color = await page.locator('.legal__back').evaluate((el) => getComputedStyle(el).fontWeight);
    assert.equal(color, '600');
    assert.deepEqual(await axeViolations(page), []);
    await page.context().close();
  });

  it('renders terms and cookies, with the /contact link and the way home', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${BASE}/terms`);
    await waitForRoute(page);
    for (const h of ['License', 'Disclaimer', 'Conduct', 'Termination', 'Limitation of liability']) {
      assert.equal(await page.getByRole('heading', { name: h }).count(), 1, h);
    }
    assert.equal(await page.locator('main a[href="/contact"]').count(), 1);
    await page.getByRole('link', { name: 'Cookie Policy' }).click();
    await waitForRoute(page);
    assert.equal(await page.locator('h1').textContent(), 'Cookie Policy');
    assert.deepEqual(await axeViolations(page), []);
    await page.getByRole('link', { name: '← Back to Home' }).click();
    await page.waitForURL(`${BASE}/`);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('answers unknown paths with the 404 screen (noindex) and /admin with the notice', async () => {
    const res = await fetch(`${BASE}/no/such/page`);
    assert.equal(res.status, 404);
    const html = await res.text();
    assert.match(html, /Page Not Found/);
    assert.match(html, /<meta data-head name="robots" content="noindex">/);
    const { page, errors } = await openPage(browser);
    await page.goto(`${BASE}/no/such/page`);
    await waitForRoute(page);
    for (const href of ['/', '/blog', '/submit'])
      assert.equal(await page.locator(`main a[href="${href}"]`).count(), 1, href);
    assert.deepEqual(await axeViolations(page), []);
    await page.goto(`${BASE}/admin`);
    await waitForRoute(page);
    assert.equal(await page.getByText('Admin panel is only available in development environment').count(), 1);
    await page.getByRole('link', { name: 'Go to Homepage' }).click();
    await page.waitForURL(`${BASE}/`);
    // The 404 document itself is reported by the browser; nothing else may fail.
    assert.deepEqual(
      errors.filter((e) => !e.includes('status of 404')),
      [],
    );
    await page.context().close();
  });

  it('has the footer links, social links and copyright on every page', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${BASE}/cookies`);
    const footer = page.locator('footer');
    for (const [name, href] of [
      ['Home', '/'],
      ['Blog', '/blog'],
      ['Advertise Your Tool', '/advertise'],
      ['Submit Tool', '/submit'],
      ['Privacy Policy', '/privacy'],
      ['Terms of Service', '/terms'],
      ['Cookie Policy', '/cookies'],
      ['Contact Us', '/contact'],
    ]) {
      assert.equal(await footer.getByRole('link', { name, exact: true }).getAttribute('href'), href);
    }
    for (const name of ['LinkedIn', 'Pinterest', 'Medium'])
      assert.equal(await footer.getByRole('link', { name }).getAttribute('target'), '_blank');
    assert.match((await footer.textContent()) ?? '', /© 2025/);
    await page.context().close();
  });

  it('keeps a manual theme across reloads, before first paint, and returns to auto', async () => {
    const { page, errors } = await openPage(browser, { colorScheme: 'light' });
    await page.clock.setFixedTime(new Date('2026-11-23T12:00:00'));
    await page.goto(`${BASE}/privacy`);
    await waitForRoute(page);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.deepEqual(await page.evaluate(() => [localStorage.getItem('theme'), localStorage.getItem('themeManual')]), [
      'dark',
      'true',
    ]);
    // The theme is applied by the head script, before the app's code runs.
    await page.route('**/assets/*.js', (r) => r.abort());
    await page.reload();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    // The toggle's name is right in the server's HTML too, before (here: without) the app's code.
    assert.equal(await page.getByRole('button', { name: 'Switch to light mode' }).count(), 1);
    assert.equal(await page.getByRole('button', { name: 'Switch to dark mode' }).count(), 0);
    await page.unroute('**/assets/*.js');
    await page.reload();
    await waitForRoute(page);
    assert.equal(await page.getByRole('button', { name: 'Switch to light mode' }).count(), 1);
    assert.deepEqual(await axeViolations(page), [], 'contrast holds in the dark theme');
    await page.getByRole('button', { name: 'Auto theme' }).click();
    assert.equal(await page.evaluate(() => localStorage.getItem('themeManual')), 'false');
    assert.equal(
      await page.evaluate(() => document.documentElement.dataset.theme),
      'light',
      'noon is light in auto mode',
    );
    assert.deepEqual(
      errors.filter((e) => !e.includes('net::ERR_FAILED')),
      [],
    );
    await page.context().close();
  });

  it('uses dark at night in auto mode', async () => {
    const { page } = await openPage(browser, { colorScheme: 'light' });
    await page.clock.setFixedTime(new Date('2026-11-23T21:30:00'));
    await page.goto(`${BASE}/terms`);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    await page.context().close();
  });
});

describe("a page's code", () => {
  it('comes in one wave: every module a page runs before it is ready is on its list, and no stylesheet it has inline is fetched', async () => {
    for (const path of [
      '/',
      '/tool/chatgpt',
      '/blog',
      '/blog/what-is-model-context-protocol-mcp',
      '/submit',
      '/privacy',
    ]) {
      const { page, errors } = await openPage(browser);
      await noteRouteReady(page);
      await page.goto(BASE + path);
      await page.waitForFunction(() => window.__routeReadyAt !== undefined);
      const { listed, before } = await page.evaluate(() => ({
        listed: JSON.parse(document.getElementById('__PAGE_CODE__')?.textContent ?? '[]') as string[],
        // What was asked for before the route's code had run (later loads, such as the forms' checks, do not count).
        before: performance
          .getEntriesByType('resource')
          .filter((r) => r.startTime < window.__routeReadyAt!)
          .map((r) => new URL(r.name).pathname),
      }));
      // A module found only when code runs (a shared package the route asks the host for) costs a round trip more.
      const late = before.filter((f) => f.endsWith('.js') && !listed.includes(f));
      assert.deepEqual(late, [], `${path}: modules not on the page's list`);
      const css = before.filter((f) => f.endsWith('.css'));
      assert.deepEqual(css, [], `${path}: stylesheets fetched though the page has them inline`);
      assert.deepEqual(errors, [], path);
      await page.context().close();
    }
  });

  it("hydrates into the server's head: no head tag is made again, and a page reached in the app gets its own", async () => {
    for (const path of ['/', '/tool/chatgpt', '/blog', '/blog/what-is-model-context-protocol-mcp', '/submit']) {
      const { page, errors } = await openPage(browser);
      // From the end of the parse: any change to the title or a tag the routes manage (data-head). A string: the
      // test runner's transform would name a function's inner functions with a helper the page does not have.
      await page.addInitScript(`
        window.__headChanges = [];
        const managed = (n) => n instanceof Element && (n.hasAttribute('data-head') || n.localName === 'title');
        document.addEventListener('DOMContentLoaded', () =>
          new MutationObserver((records) => {
            for (const r of records) {
              const el = r.target instanceof Element ? r.target : r.target.parentElement;
              if ((el && managed(el)) || [...r.addedNodes, ...r.removedNodes].some(managed))
                window.__headChanges.push(r.type + ' ' + (el ? el.outerHTML.slice(0, 80) : ''));
            }
          }).observe(document.head, { subtree: true, childList: true, attributes: true, characterData: true }),
        );`);
      await page.goto(BASE + path);
      await waitForRoute(page);
      await waitForSettled(page);
      const changes = await page.evaluate(() => (window as unknown as { __headChanges: string[] }).__headChanges);
      assert.deepEqual(changes, [], `${path}: head changed at hydration`);
      if (path === '/') {
        await page.locator('a[href="/tool/chatgpt"]').first().click();
        await waitForRoute(page);
        assert.match(await page.title(), /^ChatGPT/);
        assert.match((await page.locator('link[rel="canonical"]').getAttribute('href')) ?? '', /\/tool\/chatgpt$/);
        assert.equal(await page.locator('link[rel="canonical"]').count(), 1);
      }
      assert.deepEqual(errors, [], path);
      await page.context().close();
    }
  });

  it("loads the forms' checks apart: none for a visit that only reads, and a first submit still checks", async () => {
    const { page, errors, requests } = await openPage(browser);
    await page.goto(`${BASE}/submit`);
    await waitForRoute(page);
    // Past the browser's idle time after start-up: the checks wait for the visitor to touch the form.
    await waitForSettled(page);
    const checksModule = (u: string) => /\/remotes\/forms\/[^/]+\/validation-[\w-]+\.js$/.test(u);
    assert.deepEqual(requests.filter(checksModule), [], 'no checks before the form is touched');
    await page.getByRole('button', { name: 'Submit Tool' }).click();
    await page.getByText('Name is required').waitFor();
    assert.equal(await page.getByLabel(/^Tool Name/).getAttribute('aria-invalid'), 'true');
    const posted = requests.filter((u) => u.endsWith('/api/submissions'));
    assert.deepEqual(posted, [], 'nothing sent');
    assert.equal(requests.filter(checksModule).length, 1, 'the checks, once the form was touched');
    const listed = await page.evaluate(
      () => JSON.parse(document.getElementById('__PAGE_CODE__')?.textContent ?? '[]') as string[],
    );
    const bodies = await Promise.all(listed.map(async (f) => (await fetch(BASE + f)).text()));
    assert.ok(
      bodies.every((b) => !b.includes('ZodError')),
      'no module the page lists carries zod',
    );
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});

describe('a remote that fails to load', () => {
  /** Opens /blog (another remote), breaks the legal remote's files matching `pattern`, then goes to `footerLink` in-app. */
  async function failInApp(pattern: string, fail: (r: Route) => Promise<void>, footerLink: string) {
    const watched = await openPage(browser);
    const { page } = watched;
    await page.goto(`${BASE}/blog`);
    await waitForRoute(page);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page.route(pattern, fail);
    await page.locator('footer').getByRole('link', { name: footerLink, exact: true }).click();
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    return watched;
  }

  /** Lets the files through again, presses Try again, and expects the route in place without a page load. */
  async function recovers(page: Page, pattern: string, heading: string) {
    assert.equal(await page.locator('footer').count(), 1, 'the shell and footer stay up');
    await page.unroute(pattern);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await waitForRoute(page);
    assert.equal(
      await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
      true,
      'recovered without a reload',
    );
    assert.equal(await page.locator('.remote-error').count(), 0);
  }

  it('recovers from a refused connection with Try again', async () => {
    const pattern = '**/remotes/legal/**';
    const { page } = await failInApp(pattern, (r) => r.abort('connectionrefused'), 'Terms of Service');
    assert.match(
      (await page.locator('.remote-error').textContent()) ?? '',
      /Loading chunk legal\/Terms failed\..*\(error\)/,
    );
    await recovers(page, pattern, 'Terms of Service');
    await page.context().close();
  });

  it('classifies a 404 entry as missing, keeps other routes working, and recovers with Try again', async () => {
    const pattern = '**/remotes/legal/**/remoteEntry.js';
    const { page } = await failInApp(pattern, (r) => r.fulfill({ status: 404, body: 'not found' }), 'Privacy Policy');
    assert.match((await page.locator('.remote-error').textContent()) ?? '', /\(missing\)/);
    await recovers(page, pattern, 'Privacy Policy');
    await page.locator('footer').getByRole('link', { name: 'Blog', exact: true }).click();
    await page.waitForURL(`${BASE}/blog`);
    await waitForRoute(page);
    await page.context().close();
  });

  it('recovers when the entry loads but the route chunk fails', async () => {
    const pattern = '**/remotes/legal/**/__federation_expose_Terms-*.js';
    const { page, requests } = await failInApp(pattern, (r) => r.abort('failed'), 'Terms of Service');
    assert.ok(
      requests.some((u) => /\/remotes\/legal\/[^/]+\/remoteEntry\.js$/.test(u)),
      'the entry itself loaded',
    );
    await recovers(page, pattern, 'Terms of Service');
    await page.context().close();
  });

  it('recovers when a preloaded chunk failed during the first page load', async () => {
    const pattern = '**/remotes/legal/**/__federation_expose_Privacy-*.js';
    const { page } = await openPage(browser);
    await page.route(pattern, (r) => r.abort('connectionrefused'));
    await page.goto(`${BASE}/privacy`);
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await recovers(page, pattern, 'Privacy Policy');
    await page.context().close();
  });

  it('says so when a retry fails too, and offers a full reload that works', async () => {
    const pattern = '**/remotes/legal/**';
    const { page } = await failInApp(pattern, (r) => r.abort('connectionrefused'), 'Cookie Policy');
    assert.equal(await page.getByRole('button', { name: 'Reload page' }).count(), 0);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('Trying again did not help').waitFor();
    await page.unroute(pattern);
    await page.getByRole('button', { name: 'Reload page' }).click();
    await page.getByRole('heading', { level: 1, name: 'Cookie Policy' }).waitFor();
    await waitForRoute(page);
    await page.context().close();
  });

  it('serves the release before it when the manifest points the legal remote at a missing release; the rest of the site is untouched', async () => {
    const file = join(RELEASES_DIR, 'manifest.json');
    const original = readFileSync(file, 'utf8');
    const manifest = JSON.parse(original);
    const intact = manifest.remotes.legal.active;
    manifest.remotes.legal.active = 'does-not-exist';
    writeFileSync(file, JSON.stringify(manifest));
    try {
      // The fault-isolation rule (docs/reliability.md; the 503 case is in faults.spec.ts): the newest intact release.
      const res = await fetch(`${BASE}/privacy`);
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.ok(html.includes(`/remotes/legal/${intact}/remoteEntry.js`), 'the page names the release actually served');
      assert.equal(
        ((await (await fetch(`${BASE}/remotes.json`)).json()) as Record<string, { id: string }>).legal?.id,
        intact,
      );
      const { page, errors } = await openPage(browser);
      // The browser runs the intact release's code.
      const entry = page.waitForResponse((r) => r.url().includes(`/remotes/legal/${intact}/remoteEntry.js`));
      await page.goto(`${BASE}/privacy`);
      assert.equal((await entry).status(), 200);
      await waitForRoute(page);
      assert.equal(await page.locator('h1').textContent(), 'Privacy Policy');
      // A shell route and another remote's route are untouched.
      await page.goto(`${BASE}/admin`);
      await waitForRoute(page);
      assert.equal(await page.getByText('Admin panel is only available in development environment').count(), 1);
      await page.goto(`${BASE}/blog`);
      await waitForRoute(page);
      assert.equal(await page.locator('h1').textContent(), 'AI Tools Blog');
      assert.deepEqual(errors, []);
      await page.context().close();
    } finally {
      writeFileSync(file, original);
    }
  });
});
