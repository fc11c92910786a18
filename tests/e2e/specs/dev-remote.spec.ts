/**
 * Remotes have no dev server: a remote's own build (`pnpm --filter @aitools/mfe-legal dev` is the same build in watch
 * mode) is served by the real server when DEV_REMOTES names it, while the other remotes keep their releases.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, waitForRoute } from '../browser';
import { REPO_ROOT, startSite, type Site } from '../harness';

let browser: Browser;
let site: Site;

before(async () => {
  const build = spawnSync('pnpm', ['--filter', '@aitools/mfe-legal', 'build'], { cwd: REPO_ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, build.stderr);
  assert.ok(existsSync(join(REPO_ROOT, 'mfe-legal', 'dist', 'server', 'entry.mjs')));
  site = await startSite({ releasesDir: process.env.RELEASES_DIR, extraEnv: { DEV_REMOTES: 'legal' } });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

describe('developing one remote', () => {
  it('serves the remote from its own build, rendered on the server and hydrated in the browser', async () => {
    const html = await (await fetch(`${site.baseUrl}/privacy`)).text();
    assert.match(html, /This website is cookieless/);
    assert.match(html, /"legal":\{"id":"dev","entry":"\/remotes\/legal\/dev\/remoteEntry\.js"/);
    assert.match(html, /"blog":\{"id":"(?!dev)[^"]+"/, 'the other remotes keep their releases');
    const { page, errors, requests } = await openPage(browser);
    await page.goto(`${site.baseUrl}/privacy`);
    await waitForRoute(page);
    assert.ok(requests.some((u) => u.includes('/remotes/legal/dev/__federation_expose_Privacy')));
    assert.equal(await page.locator('h1').textContent(), 'Privacy Policy');
    assert.deepEqual(errors, []);
    const res = await fetch(`${site.baseUrl}/remotes/legal/dev/remoteEntry.js`);
    assert.equal(
      res.headers.get('cache-control'),
      'no-cache',
      'development files are revalidated, never cached for a year',
    );
    await page.context().close();
  });
});
