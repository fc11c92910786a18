/**
 * Independent releases and rollback with the server running throughout: the harness released every remote (v1);
 * here the directory team ships a visibly changed v2, then an operator rolls it back.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, waitForRoute } from '../browser';
import { REPO_ROOT, runReleaseCli, teamCheckout } from '../harness';

const BASE = process.env.BASE_URL!;
const RELEASES_DIR = process.env.RELEASES_DIR!;
const env = { RELEASES_DIR, DATABASE_PATH: process.env.DATABASE_PATH! };
const V1_TEXT = 'Search tools and servers...';
const V2_TEXT = 'Search tools and servers (v2)...';

let browser: Browser;
let v2Dir: string;

function hashTree(dir: string): string {
  const hash = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else hash.update(relative(dir, p)).update(readFileSync(p));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

function manifest() {
  return JSON.parse(readFileSync(join(RELEASES_DIR, 'manifest.json'), 'utf8')) as {
    remotes: Record<
      string,
      { active: string; history: { action: string; id: string; from: string | null; by: string; at: string }[] }
    >;
  };
}

async function homePlaceholder(): Promise<string> {
  const { page, errors } = await openPage(browser);
  await page.goto(`${BASE}/`);
  await waitForRoute(page);
  const placeholder =
    (await page.locator('input[placeholder^="Search tools and servers"]').first().getAttribute('placeholder')) ?? '';
  assert.deepEqual(errors, [], 'the page hydrates with the release it was rendered with');
  await page.context().close();
  return placeholder;
}

before(async () => {
  browser = await launchBrowser();
  v2Dir = teamCheckout('mfe-directory', V1_TEXT, V2_TEXT);
});
after(async () => {
  await browser.close();
  rmSync(join(v2Dir, '..'), { recursive: true, force: true });
});

describe('independent releases and rollback', () => {
  it('releases directory v2, rolls it back, and leaves blog and the shell untouched', async () => {
    const shellBefore = hashTree(join(REPO_ROOT, 'shell', 'dist'));
    const start = manifest();
    const directoryV1 = start.remotes.directory.active;
    const blogV1 = start.remotes.blog.active;
    assert.match(await (await fetch(`${BASE}/`)).text(), new RegExp(V1_TEXT.replace(/[.()]/g, '\\$&')));

    // The directory team ships v2 from its own checkout; the server keeps running.
    const released = await runReleaseCli(env, ['release', 'directory', '--package-dir', v2Dir]);
    assert.equal(released.status, 0, released.stderr);
    const directoryV2 = manifest().remotes.directory.active;
    assert.notEqual(directoryV2, directoryV1);

    const html = await (await fetch(`${BASE}/`)).text();
    assert.ok(html.includes(V2_TEXT), 'server HTML of / comes from v2');
    assert.ok(html.includes(`/remotes/directory/${directoryV2}/remoteEntry.js`), 'the page names v2');
    assert.equal(await homePlaceholder(), V2_TEXT);

    const blogHtml = await (await fetch(`${BASE}/blog`)).text();
    assert.ok(blogHtml.includes(`/remotes/blog/${blogV1}/remoteEntry.js`), '/blog still serves blog v1');
    const { page } = await openPage(browser);
    const blogFiles: string[] = [];
    page.on('request', (r) => r.url().includes('/remotes/blog/') && blogFiles.push(r.url()));
    await page.goto(`${BASE}/blog`);
    await waitForRoute(page);
    assert.ok(
      blogFiles.length > 0 && blogFiles.every((u) => u.includes(`/remotes/blog/${blogV1}/`)),
      'the browser loads blog v1 files',
    );
    await page.context().close();

    // The operator rolls the directory back: one command, no restart.
    const rolled = await runReleaseCli(env, ['rollback', 'directory']);
    assert.equal(rolled.status, 0, rolled.stderr);
    assert.match(rolled.stdout, new RegExp(`rolled back from ${directoryV2} to ${directoryV1}`));
    const back = await (await fetch(`${BASE}/`)).text();
    assert.ok(back.includes(V1_TEXT) && !back.includes(V2_TEXT), 'server HTML of / is v1 again');
    assert.equal(await homePlaceholder(), V1_TEXT);

    assert.equal(hashTree(join(REPO_ROOT, 'shell', 'dist')), shellBefore, 'the shell build is byte-identical');
    const history = manifest().remotes.directory.history.map((e) => [e.action, e.from, e.id]);
    assert.deepEqual(history, [
      ['release', null, directoryV1],
      ['release', directoryV1, directoryV2],
      ['rollback', directoryV2, directoryV1],
    ]);
    assert.equal(manifest().remotes.blog.active, blogV1);

    const list = await runReleaseCli(env, ['list', 'directory']);
    assert.match(list.stdout, new RegExp(`\\* ${directoryV1}`));
    assert.match(list.stdout, new RegExp(`  ${directoryV2}`));
  });

  it('keeps the old release files reachable for visitors mid-session', async () => {
    const { history } = manifest().remotes.directory;
    const v2 = history[1].id;
    const res = await fetch(`${BASE}/remotes/directory/${v2}/remoteEntry.js`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('cache-control') ?? '', /immutable/);
  });

  it('refuses unknown ids and remotes from the command line, changing nothing', async () => {
    const before = readFileSync(join(RELEASES_DIR, 'manifest.json'), 'utf8');
    const unknownId = await runReleaseCli(env, ['rollback', 'directory', '--to', '0.0.0-nope']);
    assert.equal(unknownId.status, 1);
    assert.match(unknownId.stderr, /Unknown release "0\.0\.0-nope" for directory/);
    const unknownRemote = await runReleaseCli(env, ['rollback', 'payments']);
    assert.equal(unknownRemote.status, 1);
    assert.match(unknownRemote.stderr, /Unknown remote "payments"/);
    assert.equal(readFileSync(join(RELEASES_DIR, 'manifest.json'), 'utf8'), before);
  });
});
