/**
 * Teams ship their own remote over HTTP: the blog team's token uploads a changed blog release with the real CLI
 * (`pnpm release blog --site <url> --no-activate`), its preview link shows it to one browser while another keeps
 * the active release, and activating it over HTTP shows it to both. Tokens of other remotes, missing tokens and
 * hostile archives (a ../ entry made with GNU tar; links, an absolute path, devices, too many entries and a gzip bomb
 * made with node-tar's header encoder, as the api's unit tests make them) are refused, and nothing is stored.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser, openPage, waitForRoute } from '../browser';
import { runApiScript, runReleaseCli, teamCheckout } from '../harness';
import { draft, makeTgz, releaseEntries, type FixtureEntry } from '../../../api/test/tarFixture';
import { DEFAULT_UPLOAD_LIMITS } from '../../../api/src/releases/upload';

const BASE = process.env.BASE_URL!;
const RELEASES_DIR = process.env.RELEASES_DIR!;
const env = { RELEASES_DIR, DATABASE_PATH: process.env.DATABASE_PATH! };
const V1_TEXT = 'Latest Posts';
const V2_TEXT = 'Latest Posts (v2)';
const run = Date.now().toString(36);

let browser: Browser;
let checkout: string;
let blogToken: string;
let directoryToken: string;
/** A blog token of its own for the hostile uploads (uploads are rate-limited per token). */
let hostileToken: string;

async function createToken(remotes: string, label: string): Promise<string> {
  const r = await runApiScript(env, 'src/releases/tokenCli.ts', ['create', remotes, '--label', label]);
  assert.equal(r.status, 0, r.stderr);
  const token = /^aitr_\S+$/m.exec(r.stdout)?.[0];
  assert.ok(token, `the token is printed: ${r.stdout}`);
  return token;
}

const api = (path: string, token: string | null, init: RequestInit = {}) =>
  fetch(`${BASE}/api/releases/${path}`, {
    ...init,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(init.headers as Record<string, string>) },
  });

/** What a browser context sees at /blog: the heading once the route's code ran, the preview bar, and the blog
 *  release the page names. */
async function blogAsSeenBy(
  context: BrowserContext,
): Promise<{ heading: string; bar: string | null; release: string; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${BASE}/blog`);
  await waitForRoute(page);
  const heading = (await page.locator('#blog-latest-title').textContent()) ?? '';
  const bar = (await page.locator('aside.preview-bar').count())
    ? await page.locator('aside.preview-bar p').first().textContent()
    : null;
  const state = JSON.parse(
    (await page.locator('script[type="application/json"]#__PAGE_STATE__').textContent()) ?? '{}',
  ) as { releases: Record<string, { id: string }> };
  await page.close();
  return { heading, bar, release: state.releases.blog?.id ?? '', errors };
}

before(async () => {
  browser = await launchBrowser();
  checkout = teamCheckout('mfe-blog', `>${V1_TEXT}<`, `>${V2_TEXT}<`, /\.tsx$/);
  blogToken = await createToken('blog', `blog-ci-${run}`);
  directoryToken = await createToken('directory', `directory-ci-${run}`);
  hostileToken = await createToken('blog', `blog-hostile-${run}`);
});
after(async () => {
  await browser.close();
  rmSync(dirname(checkout), { recursive: true, force: true });
});

describe('release API', () => {
  it('refuses no token (401) and a token of another remote (403)', async () => {
    const none = await api('blog', null);
    assert.equal(none.status, 401);
    assert.match(((await none.json()) as { error: string }).error, /Authorization: Bearer/);
    const other = await api('blog', directoryToken);
    assert.equal(other.status, 403);
    const upload = await api('blog', directoryToken, {
      method: 'POST',
      headers: { 'Content-Type': 'application/gzip' },
      body: new Uint8Array([0x1f, 0x8b]),
    });
    assert.equal(upload.status, 403);
    const cli = await runReleaseCli({ ...env, RELEASE_TOKEN: directoryToken }, ['rollback', 'blog', '--site', BASE]);
    assert.equal(cli.status, 1);
    assert.match(cli.stderr, /Rollback refused \(403\).*not blog[\s\S]*token that covers blog/);
  });

  it('uploads a blog release that one browser previews while another keeps the active one; activated over HTTP, both see it', async () => {
    const active = ((await (await api('blog', blogToken)).json()) as { data: { active: string } }).data.active;
    const upload = await runReleaseCli({ ...env, RELEASE_TOKEN: blogToken }, [
      'release',
      'blog',
      '--site',
      BASE,
      '--no-activate',
      '--package-dir',
      checkout,
    ]);
    assert.equal(upload.status, 0, upload.stderr + upload.stdout);
    assert.match(upload.stdout, /building release .* \(browser build\)/);
    assert.match(upload.stdout, /uploading 100%/);
    const previewLink = /^\s+(http\S+__preview\S+)$/m.exec(upload.stdout)?.[1];
    assert.ok(previewLink, `the preview link is printed:\n${upload.stdout}`);
    const id = /\/__preview\/blog\/([^?]+)/.exec(previewLink)![1]!;
    assert.notEqual(id, active);

    const listed = (await (await api('blog', blogToken)).json()) as {
      data: { active: string; releases: { id: string; releasedBy: string }[] };
    };
    assert.equal(listed.data.active, active, 'stored, not activated');
    assert.equal(listed.data.releases.find((r) => r.id === id)?.releasedBy, `blog-ci-${run}`);

    const previewer = await browser.newContext();
    const visitor = await browser.newContext();
    try {
      // Only the browser that opened the link gets the release, in the server render and in its code.
      const open = await previewer.newPage();
      await open.goto(previewLink);
      assert.equal(new URL(open.url()).pathname, '/blog');
      await open.close();
      // Twice each: the second request of a page is where a stored page or the front lane would answer.
      for (let i = 0; i < 2; i++) {
        const previewed = await blogAsSeenBy(previewer);
        assert.equal(previewed.heading, V2_TEXT);
        assert.equal(previewed.bar, `Previewing blog ${id}`);
        assert.equal(previewed.release, id);
        assert.deepEqual(previewed.errors, [], 'the previewed release hydrates its own server HTML');
        const other = await blogAsSeenBy(visitor);
        assert.equal(other.heading, V1_TEXT);
        assert.equal(other.bar, null);
        assert.equal(other.release, active);
      }
      const anonymous = await (await fetch(`${BASE}/blog`)).text();
      assert.ok(
        anonymous.includes(`>${V1_TEXT}<`) && !anonymous.includes(V2_TEXT),
        'the page cache holds no previewed page',
      );

      // The bar's button (a plain form post) ends the preview.
      const page = await previewer.newPage();
      await page.goto(`${BASE}/blog`);
      await page.getByRole('button', { name: 'Stop preview' }).click();
      await page.waitForURL(`${BASE}/blog`);
      await waitForRoute(page);
      assert.equal(await page.locator('#blog-latest-title').textContent(), V1_TEXT);
      assert.equal(await page.locator('aside.preview-bar').count(), 0);
      await page.close();

      // Activated over HTTP: every visitor gets it.
      const activate = await api('blog/activate', blogToken, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ id }),
      });
      assert.equal(activate.status, 200);
      for (const context of [previewer, visitor]) {
        const seen = await blogAsSeenBy(context);
        assert.equal(seen.heading, V2_TEXT);
        assert.equal(seen.release, id);
        assert.equal(seen.bar, null);
      }
      const history = (await (await api('blog', blogToken)).json()) as {
        data: { history: { action: string; id: string; by: string }[] };
      };
      assert.deepEqual(history.data.history.at(-1), {
        ...history.data.history.at(-1),
        action: 'release',
        id,
        by: `blog-ci-${run}`,
      });
    } finally {
      await previewer.close();
      await visitor.close();
    }

    // Rolled back over HTTP (the CLI from a team's checkout): the earlier release serves again.
    const rolled = await runReleaseCli({ ...env, RELEASE_TOKEN: blogToken }, ['rollback', 'blog', '--site', BASE]);
    assert.equal(rolled.status, 0, rolled.stderr);
    assert.match(rolled.stdout, new RegExp(`rolled back from ${id} to ${active}`));
    assert.ok((await (await fetch(`${BASE}/blog`)).text()).includes(`>${V1_TEXT}<`));
    const { page, errors } = await openPage(browser);
    await page.goto(`${BASE}/blog`);
    await waitForRoute(page);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('releases and activates in one command from a team checkout, and lists what the token may see', async () => {
    const released = await runReleaseCli({ ...env, RELEASE_TOKEN: blogToken }, [
      'release',
      'blog',
      '--site',
      BASE,
      '--package-dir',
      checkout,
    ]);
    assert.equal(released.status, 0, released.stderr + released.stdout);
    const id = /blog: (\S+) is active \(was /.exec(released.stdout)?.[1];
    assert.ok(id, released.stdout);
    assert.ok(
      (await (await fetch(`${BASE}/blog`)).text()).includes(`/remotes/blog/${id}/remoteEntry.js`),
      'every visitor gets it',
    );

    const list = await runReleaseCli({ ...env, RELEASE_TOKEN: blogToken }, ['list', '--site', BASE]);
    assert.equal(list.status, 0, list.stderr);
    assert.match(list.stdout, new RegExp(`^blog:\\n  \\* ${id}  built \\S+  uploaded by blog-ci-${run}$`, 'm'));
    assert.match(list.stdout, new RegExp(`release +\\S+ -> ${id}  by blog-ci-${run}`));
    assert.doesNotMatch(list.stdout, /^directory:/m, "other remotes are not this token's to list");

    const noToken = await runReleaseCli({ ...env, RELEASE_TOKEN: '' }, ['rollback', 'blog', '--site', BASE]);
    assert.equal(noToken.status, 1);
    assert.match(noToken.stderr, /Set RELEASE_TOKEN/);
  });

  it('refuses a tar with ../ entries, and nothing appears outside the store', async () => {
    const work = mkdtempSync(join(tmpdir(), 'hostile-'));
    try {
      const name = `escaped-${run}.txt`;
      mkdirSync(join(work, 'src'));
      writeFileSync(join(work, 'src', name), 'should never be written');
      const archive = join(work, 'bad.tgz');
      // GNU tar, told to keep the names as given: the entry is ../../escaped-*.txt.
      const tar = spawnSync('tar', ['-czPf', archive, '--transform=s,^,../../,', '-C', join(work, 'src'), name], {
        encoding: 'utf8',
      });
      assert.equal(tar.status, 0, tar.stderr);
      assert.match(spawnSync('tar', ['-tzPf', archive], { encoding: 'utf8' }).stdout, /^\.\.\/\.\.\/escaped-/);
      await refusedAndNothingStored(readFileSync(archive), 400, /climbs out of the release folder/, name);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('refuses links, an absolute path, devices, too many entries and a gzip bomb, each with its reason, storing nothing', async () => {
    const release = releaseEntries(draft({ remote: 'blog' }));
    const name = `escaped-${run}.js`;
    const { maxFiles, maxBytes } = DEFAULT_UPLOAD_LIMITS;
    const cases: [string, FixtureEntry[], number, RegExp][] = [
      ['an absolute path', [{ path: `/tmp/${name}`, body: 'x' }], 400, /absolute path/],
      [
        'a symbolic link',
        [{ path: 'client/link.js', type: 'SymbolicLink', linkpath: '/etc/passwd' }],
        400,
        /symbolic link/,
      ],
      ['a hard link', [{ path: 'client/hard.js', type: 'Link', linkpath: 'client/remoteEntry.js' }], 400, /hard link/],
      ['a character device', [{ path: 'client/dev', type: 'CharacterDevice' }], 400, /CharacterDevice/],
      ['a block device', [{ path: 'client/blk', type: 'BlockDevice' }], 400, /BlockDevice/],
      ['a FIFO', [{ path: 'client/fifo', type: 'FIFO' }], 400, /FIFO/],
      [
        'more entries than allowed',
        Array.from({ length: maxFiles }, (_, i) => ({ path: `client/f${i}.js`, body: 'x' })),
        413,
        new RegExp(`more than ${maxFiles} entries`),
      ],
      // A few dozen kB of gzip that unpack past the limit: the unpacked bytes are counted, not the upload's.
      [
        'a gzip bomb',
        [{ path: 'client/bomb.js', body: Buffer.alloc(maxBytes + 1024 * 1024) }],
        413,
        new RegExp(`more than ${maxBytes} bytes`),
      ],
    ];
    for (const [what, hostile, status, error] of cases) {
      const archive = makeTgz([...release, ...hostile]);
      if (what === 'a gzip bomb') assert.ok(archive.length < 1024 * 1024, `${what}: ${archive.length} bytes sent`);
      await refusedAndNothingStored(archive, status, error, name, what);
    }
  });
});

/** Uploads `archive` as the blog: refused with `status` and `error`, and the store, its staging folder and the
 *  folders around it are as they were (no file called `name` anywhere). */
async function refusedAndNothingStored(archive: Buffer, status: number, error: RegExp, name: string, what = '') {
  const blogDir = join(RELEASES_DIR, 'blog');
  const before = readdirSync(blogDir).sort();
  const listed = async () =>
    ((await (await api('blog', hostileToken)).json()) as { data: { releases: { id: string }[] } }).data.releases;
  const releasesBefore = await listed();
  const res = await api('blog', hostileToken, {
    method: 'POST',
    headers: { 'Content-Type': 'application/gzip' },
    body: new Uint8Array(archive),
  });
  assert.equal(res.status, status, what);
  const body = (await res.json()) as { success: boolean; error: string };
  assert.equal(body.success, false, what);
  assert.match(body.error, error, what);
  assert.deepEqual(readdirSync(blogDir).sort(), before, `${what}: no release folder`);
  assert.deepEqual(await listed(), releasesBefore, `${what}: no release listed`);
  for (const d of [
    RELEASES_DIR,
    blogDir,
    join(RELEASES_DIR, '.staging'),
    dirname(RELEASES_DIR),
    dirname(dirname(RELEASES_DIR)),
    '/tmp',
  ])
    assert.equal(existsSync(join(d, name)), false, `${what}: nothing written to ${d}`);
  const staging = join(RELEASES_DIR, '.staging');
  assert.deepEqual(existsSync(staging) ? readdirSync(staging) : [], [], `${what}: no staging folder left behind`);
}
