import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, waitForRoute } from '../browser';

const BASE = process.env.BASE_URL!;
const PAGES = [
  '/',
  '/tool/cursor',
  '/blog',
  '/blog/how-ai-all-started-history-artificial-intelligence',
  '/submit',
  '/advertise',
  '/contact',
  '/privacy',
];
let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser.close();
});

describe('content security policy', () => {
  it("allows exactly the page's inline stylesheets by hash, the same for every response of a page", async () => {
    for (const path of ['/blog', '/tool/cursor', '/privacy']) {
      const a = await fetch(`${BASE}${path}`);
      const b = await fetch(`${BASE}${path}`);
      const csp = a.headers.get('content-security-policy')!;
      assert.equal(b.headers.get('content-security-policy'), csp);
      const html = await a.text();
      const styles = [...html.matchAll(/<style data-href="[^"]+">([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
      assert.equal(styles.length, 2, `${path}: the shell's and the remote's stylesheets`);
      const allowed = /style-src-elem ([^;]+)/.exec(csp)![1]!.split(' ').sort();
      assert.deepEqual(
        allowed,
        ["'self'", ...styles.map((css) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`)].sort(),
      );
    }
    // A JSON answer carries no style allowance.
    assert.match(
      (await fetch(`${BASE}/api/tools/cursor`)).headers.get('content-security-policy')!,
      /style-src-elem 'self';/,
    );
  });

  it('allows the inline scripts (theme, page code) by their hashes, with no nonce, the same header for every response', async () => {
    const a = await fetch(`${BASE}/blog`);
    const b = await fetch(`${BASE}/blog`);
    const csp = a.headers.get('content-security-policy')!;
    assert.equal(b.headers.get('content-security-policy'), csp);
    assert.doesNotMatch(csp, /nonce-/);
    assert.match(csp, /style-src-elem 'self'/);
    const html = await a.text();
    assert.doesNotMatch(html, /nonce=/);
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    assert.equal(inline.length, 2, 'two inline scripts: the theme, and the boot of the page code');
    assert.match(inline[0]!, /prefers-color-scheme/);
    assert.match(inline[1]!, /__PAGE_CODE__/);
    for (const script of inline)
      assert.ok(
        csp.includes(`'sha256-${createHash('sha256').update(script).digest('base64')}'`),
        'its hash is in script-src',
      );
  });

  for (const path of PAGES) {
    it(`reports no CSP violation on ${path}, and the theme script ran before first paint`, async () => {
      const { page, errors } = await openPage(browser, { colorScheme: 'dark' });
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { cspViolations: string[] }).cspViolations = seen;
        document.addEventListener('securitypolicyviolation', (e) =>
          seen.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
        );
      });
      await page.goto(`${BASE}${path}`);
      await waitForRoute(page);
      // Give late work (lazy chunks, stylesheets) a moment to report.
      await page.waitForLoadState('networkidle');
      const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
      assert.deepEqual(violations, []);
      assert.deepEqual(
        errors.filter((e) => /Content Security Policy/i.test(e)),
        [],
      );
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
      await page.context().close();
    });
  }
});
