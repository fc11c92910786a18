/**
 * Canary releases that watch themselves, on a server of its own (a copy of the suite's store) with low view and error
 * thresholds and the default distinct-source rule (10 visitors from 5 networks), behind a "proxy" on this machine
 * (TRUST_PROXY=loopback: each visitor's address is its X-Forwarded-For):
 * - a healthy blog canary at 50% splits fresh browsers and keeps each on its side; with errors on both sides at the
 *   same rate, from enough visitors, it is judged and kept;
 * - one address with real pages' tokens reports 500 errors against a healthy canary with 300 page views: three count,
 *   judged, kept; a flood of one address's page views counts a few;
 * - a blog release built to throw in the browser (and to mismatch its server HTML), started as a canary, is rolled back
 *   on its own once ten visitors from six networks have hit it; a visitor who had the canary gets the stable release;
 * - a blog release whose post page throws while the server renders it, as a canary: its posts answer 503 with the
 *   shell frame and the browser renders them, an unknown post stays a 404, and the server's own failures (counted
 *   against its page views, failed ones included) roll it back;
 * - /metrics has every family.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
// @ts-expect-error -- the parser ships no types; its output is checked below
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { launchBrowser, openPage, waitForRoute, type WatchedPage } from '../browser';
import { freePort, REPO_ROOT, runApiScript, runReleaseCli, startSite, type Site } from '../harness';

const METRICS_TOKEN = 'canary-spec-metrics';
const FAULT = 'injected canary fault';
/** Pages of the blog list a visitor loads in turn. */
const PATHS = ['/blog', '/blog?search=ai', '/blog?page=1'];

let site: Site;
let releasesDir: string;
let browser: Browser;
let checkouts: string;
let metricsPort: number;
let releaseToken: string;

type History = { action: string; id: string; from: string | null; by: string; note?: string }[];
const manifest = () =>
  JSON.parse(readFileSync(join(releasesDir, 'manifest.json'), 'utf8')) as {
    remotes: Record<string, { active: string; canary?: { id: string; percent: number }; history: History }>;
  };

/** A checkout of the blog remote, changed by `edit` (a copy of the package, its dependencies linked). */
function checkoutBlog(name: string, edit: (src: string) => void = () => {}): string {
  const root = join(checkouts, name);
  cpSync(join(REPO_ROOT, 'tsconfig.base.json'), join(root, 'tsconfig.base.json'));
  const dir = join(root, 'mfe-blog');
  const src = join(REPO_ROOT, 'mfe-blog');
  for (const f of readdirSync(src))
    if (f !== 'node_modules' && f !== 'dist') cpSync(join(src, f), join(dir, f), { recursive: true });
  symlinkSync(join(src, 'node_modules'), join(dir, 'node_modules'));
  edit(dir);
  return dir;
}

/** Builds and stores a blog release from a checkout and starts it as a canary for `percent` of visitors. */
async function canary(dir: string, percent: number): Promise<string> {
  const before = manifest().remotes.blog!.active;
  const r = await runReleaseCli(site.env, ['release', 'blog', '--package-dir', dir, '--canary', String(percent)]);
  assert.equal(r.status, 0, r.stderr);
  const state = manifest().remotes.blog!;
  assert.equal(state.active, before, 'the stable release stays active');
  assert.equal(state.canary?.percent, percent);
  return state.canary!.id;
}

/** A browser of its own (its own cookies), from `from` (its X-Forwarded-For) and, when given, with a canary bucket
 *  already set (a returning visitor). */
async function newVisitor(from: string, bucket?: number): Promise<WatchedPage> {
  const visit = await openPage(browser);
  await visit.page.context().setExtraHTTPHeaders({ 'X-Forwarded-For': from });
  if (bucket !== undefined)
    await visit.page.context().addCookies([{ name: 'release_bucket', value: String(bucket), url: site.baseUrl }]);
  return visit;
}

/** The visitor loads /blog `loads` times; returns the blog release of each load, as the page names it, after checking
 *  the browser loaded exactly that release's files; and the errors it saw. `keep`: the browser stays open. */
async function visitor(
  loads: number,
  opts: { from: string; bucket?: number; waitForReport?: string; visit?: WatchedPage; keep?: boolean },
): Promise<{ ids: string[]; errors: string[] }> {
  const { page, errors } = opts.visit ?? (await newVisitor(opts.from, opts.bucket));
  const ids: string[] = [];
  try {
    for (let i = 0; i < loads; i++) {
      const files: string[] = [];
      const onRequest = (r: { url(): string }) => void (r.url().includes('/remotes/blog/') && files.push(r.url()));
      page.on('request', onRequest);
      const report = opts.waitForReport
        ? page.waitForResponse((r) => r.url().endsWith('/api/signals'), { timeout: 15_000 })
        : null;
      report?.catch(() => {}); // a visitor on the stable release sends none
      await page.goto(site.baseUrl + PATHS[i % PATHS.length]);
      await waitForRoute(page);
      const id = await page.evaluate(
        () =>
          (
            JSON.parse(document.getElementById('__PAGE_STATE__')!.textContent!) as {
              releases: { blog: { id: string } };
            }
          ).releases.blog.id,
      );
      if (report && id === opts.waitForReport)
        assert.equal((await report).status(), 204, 'the report, with its page token, is counted');
      page.off('request', onRequest);
      assert.ok(
        files.length > 0 && files.every((u) => u.includes(`/remotes/blog/${id}/`)),
        `the browser loads the files of ${id}, the release its page names`,
      );
      ids.push(id);
    }
  } finally {
    if (!opts.keep) await page.context().close();
  }
  return { ids, errors };
}

/** Waits for `condition` to give a value, checking every 200 ms; fails naming `what` after `ms`. */
async function waitFor<T>(
  what: string,
  condition: () => Promise<T | undefined> | T | undefined,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await condition();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

type Counts = {
  views: number;
  errors: number;
  sources: { visitors: number; networks: number };
  refused: Record<string, number>;
};
type Health = {
  kind: string;
  fresh: string;
  freshCounts: Counts;
  stableCounts: Counts;
  lastCheck?: {
    at: string;
    fresh: string;
    rollBack: boolean;
    reason: string;
    freshCounts: Counts;
    stableCounts: Counts;
  };
};

/** What the release API says it watches for the blog, with the server's latest judgement. */
async function blogHealth(): Promise<Health | null> {
  const res = await fetch(`${site.baseUrl}/api/releases/blog`, {
    headers: { Authorization: `Bearer ${releaseToken}` },
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: { health?: Health } }).data.health ?? null;
}

/** Waits for a judgement of `fresh` that began after `since` (ms) and counted what `enough` wants. */
const judgedOn = (fresh: string, since: number, what: string, enough: (c: Counts) => boolean) =>
  waitFor(`a judgement of ${fresh} on ${what}`, async () => {
    const health = await blogHealth();
    // Nothing watched any more: the release was ended (by a rollback, which the history says).
    if (health?.fresh !== fresh)
      assert.fail(`${fresh} is no longer watched: ${JSON.stringify(manifest().remotes.blog!.history.at(-1))}`);
    const last = health.lastCheck;
    return last?.fresh === fresh && Date.parse(last.at) > since && enough(last.freshCounts) ? last : undefined;
  });

/** A page of /blog as a client that keeps no cookies sees it with this bucket: the release and token it names. */
async function pageAs(bucket: number, path = '/blog', from?: string): Promise<{ release: string; token: string }> {
  const res = await fetch(site.baseUrl + path, {
    headers: { Cookie: `release_bucket=${bucket}`, ...(from ? { 'X-Forwarded-For': from } : {}) },
  });
  assert.equal(res.status, 200);
  const state = /<script type="application\/json" id="__PAGE_STATE__">(.*?)<\/script>/s.exec(await res.text())?.[1];
  assert.ok(state, 'the page has its state');
  const parsed = JSON.parse(state) as { releases: { blog: { id: string } }; signals: { blog: string } };
  return { release: parsed.releases.blog.id, token: parsed.signals.blog };
}

/** An error report about the blog, as the shell sends it, from an address. */
const reportError = (release: string, token: string, from: string) =>
  fetch(`${site.baseUrl}/api/signals`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain;charset=UTF-8', 'X-Forwarded-For': from },
    body: JSON.stringify({ remote: 'blog', release, kind: 'unhandled', route: '/blog', hash: '0badc0de', token }),
  });

before(async () => {
  releasesDir = join(mkdtempSync(join(tmpdir(), 'canary-releases-')), 'releases');
  cpSync(process.env.RELEASES_DIR!, releasesDir, { recursive: true });
  checkouts = mkdtempSync(join(tmpdir(), 'canary-checkouts-'));
  metricsPort = await freePort();
  site = await startSite({
    releasesDir,
    extraEnv: {
      ROLLBACK_MIN_VIEWS: '10',
      ROLLBACK_MIN_ERRORS: '4',
      ROLLBACK_CHECK_MS: '500',
      SIGNALS_FLUSH_MS: '300',
      SIGNALS_RATE_LIMIT: '1000',
      TRUST_PROXY: 'loopback',
      METRICS_TOKEN,
      METRICS_PORT: String(metricsPort),
    },
  });
  browser = await launchBrowser();
  const made = await runApiScript(site.env, 'src/releases/tokenCli.ts', ['create', 'blog', '--label', 'canary-spec']);
  assert.equal(made.status, 0, made.stderr);
  releaseToken = /^aitr_\S+$/m.exec(made.stdout)?.[0] ?? assert.fail(`a release token is printed: ${made.stdout}`);
});
after(async () => {
  await browser?.close();
  await site?.stop();
  rmSync(join(releasesDir, '..'), { recursive: true, force: true });
  rmSync(checkouts, { recursive: true, force: true });
});

describe('canary releases', () => {
  it('a blog release that throws in the browser, as a canary, is rolled back on its own once ten visitors from six networks hit it; the history says why; everyone, a returning canary visitor too, gets the stable release', async () => {
    const stable = manifest().remotes.blog!.active;
    const broken = await canary(
      checkoutBlog('broken', (dir) => {
        const file = join(dir, 'src', 'routes', 'BlogList.tsx');
        const text = readFileSync(file, 'utf8');
        const marker = 'function BlogList({ data }: RouteProps<BlogListData>) {\n';
        const view =
          "return data.status === 'error' ? <LoadError message={data.message} /> : <Listing posts={data.posts} />;";
        assert.ok(text.includes(marker) && text.includes(view));
        // An error thrown from the release's own code, and a text that differs between server and browser.
        const mismatch = `return (<>{${view.slice('return '.length, -1)}}<span hidden>{typeof window === 'undefined' ? 'server' : 'browser'}</span></>);`;
        writeFileSync(
          file,
          text
            .replace(
              marker,
              `${marker}  useEffect(() => void setTimeout(() => { throw new Error('${FAULT}'); }), []);\n`,
            )
            .replace(view, mismatch),
        );
      }),
      50,
    );
    // A visitor of the stable side, and ten of the canary's (buckets below 50) from six networks; the first of these
    // keeps its browser, to come back after the rollback.
    assert.deepEqual((await visitor(2, { from: '100.90.0.1', bucket: 80 })).ids, [stable, stable]);
    const returning = await newVisitor('100.91.0.1', 0);
    let visitors = 0;
    while (manifest().remotes.blog!.canary && visitors < 10) {
      const from = `100.${91 + (visitors % 6)}.0.${visitors + 1}`;
      // One page each: the tenth visitor's reports end the canary.
      const { ids, errors } = await visitor(1, {
        from,
        bucket: visitors,
        waitForReport: broken,
        ...(visitors === 0 ? { visit: returning, keep: true } : {}),
      });
      visitors++;
      assert.deepEqual(ids, [broken]);
      assert.ok(
        errors.some((e) => e.includes(FAULT)),
        'the canary throws in the browser',
      );
    }
    assert.equal(visitors, 10, 'not rolled back before ten visitors');
    await waitFor('the automatic rollback', () => (manifest().remotes.blog!.canary ? undefined : true));
    const state = manifest().remotes.blog!;
    assert.equal(state.active, stable);
    const last = state.history.at(-1)!;
    assert.equal(last.action, 'abort');
    assert.equal(last.by, 'automatic');
    assert.match(
      last.note ?? '',
      new RegExp(
        `^automatic rollback: canary ${broken} of blog, error rate \\d+\\.\\d% \\(\\d+ errors in \\d+ views\\) against 0\\.0% \\(0 errors in \\d+ views\\).*, reported by 10 distinct visitors from 6 networks$`,
      ),
    );
    const listed = await runReleaseCli(site.env, ['list', 'blog']);
    assert.ok(
      listed.stdout.includes(`! `) && listed.stdout.includes(last.note!),
      'pnpm releases shows the automatic action',
    );

    // The visitor who had the canary comes back (its bucket cookie still below the share): the stable release.
    const cookies = await returning.page.context().cookies(site.baseUrl);
    assert.equal(
      cookies.find((c) => c.name === 'release_bucket')?.value,
      '0',
      'the returning visitor keeps its bucket',
    );
    assert.deepEqual((await visitor(2, { from: '100.91.0.1', visit: returning })).ids, [stable, stable]);
    // And new visitors.
    for (let i = 0; i < 3; i++) assert.deepEqual((await visitor(1, { from: `100.99.${i}.1` })).ids, [stable]);

    // It is not started again without a person's force.
    const again = await runReleaseCli(site.env, ['rollback', 'blog', '--to', broken]);
    assert.notEqual(again.status, 0);
    assert.match(again.stderr, /rolled back automatically .*force/);
  });

  it("a blog release whose post page throws while the server renders it, as a canary: its posts answer 503 with the shell frame and the browser renders them, an unknown post stays a 404, and the server's own failures roll it back", async () => {
    const stable = manifest().remotes.blog!.active;
    const broken = await canary(
      checkoutBlog('throws-on-server', (dir) => {
        const file = join(dir, 'src', 'routes', 'BlogPost.tsx');
        const text = readFileSync(file, 'utf8');
        const marker = 'function BlogPost({ data }: RouteProps<BlogPostData>) {\n';
        assert.ok(text.includes(marker));
        writeFileSync(
          file,
          text.replace(
            marker,
            `${marker}  if (typeof window === 'undefined') throw new Error('${FAULT} on the server');\n`,
          ),
        );
      }),
      50,
    );
    const listing = await (await fetch(`${site.baseUrl}/blog`, { headers: { Cookie: 'release_bucket=80' } })).text();
    const slug = /href="\/blog\/([a-z0-9-]+)"/.exec(listing)?.[1] ?? assert.fail('a post is listed');
    // A visitor on the canary's side: the page is the shell frame with the route's boundary, then the browser renders
    // the post itself.
    const { page } = await newVisitor('100.80.0.1', 0);
    try {
      const res = await page.goto(`${site.baseUrl}/blog/${slug}`);
      assert.equal(res?.status(), 503);
      assert.ok((await res!.text()).includes('This section is temporarily unavailable'), 'the route boundary');
      await waitForRoute(page);
      assert.equal(await page.locator('h1.blog-post__title').count(), 1, 'the browser rendered the post');
    } finally {
      await page.context().close();
    }
    const missing = await fetch(`${site.baseUrl}/blog/no-such-post-here`, {
      headers: { Cookie: 'release_bucket=1', 'X-Forwarded-For': '100.80.0.2' },
    });
    assert.equal(missing.status, 404);
    // Twelve visitors of the canary's side, each from an address of its own: every answer is a failure of the release.
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${site.baseUrl}/blog/${slug}`, {
        headers: { Cookie: `release_bucket=${i}`, 'X-Forwarded-For': `100.82.${i}.1` },
      });
      assert.equal(res.status, 503);
    }
    await waitFor('the automatic rollback', () => (manifest().remotes.blog!.canary ? undefined : true));
    const state = manifest().remotes.blog!;
    assert.equal(state.active, stable);
    const last = state.history.at(-1)!;
    assert.deepEqual([last.action, last.by], ['abort', 'automatic']);
    assert.match(
      last.note ?? '',
      new RegExp(`^automatic rollback: canary ${broken} of blog, .*from the server's own errors`),
    );
    const after = await fetch(`${site.baseUrl}/blog/${slug}`, { headers: { Cookie: 'release_bucket=0' } });
    assert.equal(after.status, 200);
  });

  it('a healthy canary at 50% splits 40 fresh browsers, each sticky over several pages; judged on enough views and errors at the stable rate, it is not rolled back', async () => {
    const stable = manifest().remotes.blog!.active;
    const healthy = await canary(checkoutBlog('healthy'), 50);
    // 40 browsers, and between 20% and 80% of them on the canary: a fair split falls outside that once in about
    // 24,000 runs (with 20 browsers, once in 390). The unit tests check the share itself over 2,000 draws.
    const browsers = 40;
    const sides: string[] = [];
    for (let i = 0; i < browsers; i++) {
      const { ids, errors } = await visitor(3, { from: `100.64.${i}.1` });
      assert.equal(new Set(ids).size, 1, `visitor ${i} stays on one release over its pages (${ids.join(', ')})`);
      assert.deepEqual(errors, [], 'each side hydrates with the release its page was rendered with');
      sides.push(ids[0]!);
    }
    const onCanary = sides.filter((id) => id === healthy).length;
    console.log(
      `  ${onCanary} of ${browsers} browsers on the canary ${healthy}, ${browsers - onCanary} on ${stable} (${sides.map((id) => (id === healthy ? 'c' : 's')).join('')})`,
    );
    assert.ok(sides.every((id) => id === healthy || id === stable));
    assert.ok(onCanary >= 8 && onCanary <= 32, `between 8 and 32 of ${browsers} on the canary (got ${onCanary})`);

    // Crawlers, and clients that keep no cookies, get the stable release with no cookie.
    const navigation = { 'Sec-Fetch-Dest': 'document' };
    for (const headers of [{ ...navigation, 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' }, {}]) {
      const res = await fetch(`${site.baseUrl}/blog`, { headers });
      assert.equal(res.headers.get('set-cookie'), null);
      assert.ok((await res.text()).includes(`/remotes/blog/${stable}/remoteEntry.js`));
    }

    // Both sides report errors at the same rate, each from 12 or more visitors in 6 networks: the rule gets past its
    // minimums (views, errors, distinct sources) and compares the rates.
    const canaryPage = await pageAs(0);
    const stablePage = await pageAs(99);
    assert.deepEqual([canaryPage.release, stablePage.release], [healthy, stable]);
    const viewed = await judgedOn(healthy, Date.now(), 'the views counted', (c) => c.views >= 10);
    assert.equal(viewed.rollBack, false);
    const [views, stableViews] = [viewed.freshCounts.views, viewed.stableCounts.views];
    const errors = 12;
    const stableErrors = Math.round((errors * stableViews) / views);
    // The stable side's first: a check between two reports never sees the canary's rate above its final one.
    for (let i = 0; i < stableErrors; i++)
      assert.equal((await reportError(stable, stablePage.token, `100.${80 + (i % 6)}.0.${i + 1}`)).status, 204);
    for (let i = 0; i < errors; i++)
      assert.equal((await reportError(healthy, canaryPage.token, `100.${70 + (i % 6)}.0.${i + 1}`)).status, 204);
    const judged = await judgedOn(healthy, Date.now(), `${errors} errors`, (c) => c.errors >= errors);
    console.log(`  judged on ${judged.freshCounts.views} and ${judged.stableCounts.views} views: ${judged.reason}`);
    assert.equal(judged.freshCounts.views, views, 'no view was added since');
    assert.ok(judged.freshCounts.views >= 10, 'enough views for a judgement');
    assert.deepEqual(judged.freshCounts.sources, { visitors: errors, networks: 6 });
    assert.equal(judged.rollBack, false);
    assert.match(judged.reason, /^error rate \d+\.\d% \(12 errors in \d+ views\) against .*: not clearly worse$/);
    assert.equal(manifest().remotes.blog!.canary?.id, healthy, 'the healthy canary runs on');
    const listed = await runReleaseCli(site.env, ['list', 'blog']);
    assert.match(listed.stdout, new RegExp(`canary: ${healthy} serves 50% of visitors`));
    assert.match(
      listed.stdout,
      new RegExp(`watching canary ${healthy} since .*: error rate \\d+\\.\\d% \\(12 errors / ${views} views\\)`),
    );
    assert.match(listed.stdout, /reported by 12 distinct visitors from 6 networks/);
    const aborted = await runReleaseCli(site.env, ['abort', 'blog']);
    assert.equal(aborted.status, 0, aborted.stderr);
    assert.equal(manifest().remotes.blog!.canary, undefined);
  });

  it("one address reporting 500 errors with real pages' tokens against a 50% canary with 300 page views: three counted, the rest refused, and the canary stays", async () => {
    // A release of its own: the counts of one kept per minute would mix in the reports of the test before.
    const healthy = await canary(checkoutBlog('steady'), 50);
    // 300 page views, half on each side, each page of its own (a search text of its own: a parameter the page reads,
    // so each canary page is rendered with its own token), each from a visitor of its own (a visitor's views count
    // only a few times per release).
    const tokens: string[] = [];
    for (let i = 0; i < 300; i++) {
      const page = await pageAs(
        i % 2 ? 99 : 0,
        `/blog?search=view-${i}`,
        `100.96.${Math.floor(i / 100)}.${(i % 100) + 1}`,
      );
      if (page.release === healthy) tokens.push(page.token);
    }
    assert.equal(tokens.length, 150);
    const from = '203.0.113.66';
    const answers: Record<number, number> = {};
    for (let i = 0; i < 500; i++) {
      const status = (await reportError(healthy, tokens[i % tokens.length]!, from)).status;
      answers[status] = (answers[status] ?? 0) + 1;
    }
    // One address counts three errors for a release, however many tokens it holds; past a token's three reports
    // (the last 50) it is refused as spent, before that as capped.
    assert.deepEqual(answers, { 204: 3, 429: 497 });
    const judged = await judgedOn(healthy, Date.now(), 'the refusals', (c) => (c.refused.capped ?? 0) >= 447);
    console.log(`  judged: ${judged.reason}`);
    assert.ok(judged.freshCounts.views >= 150, 'the page views are counted');
    assert.equal(judged.freshCounts.errors, 3);
    assert.deepEqual(judged.freshCounts.sources, { visitors: 1, networks: 1 });
    assert.equal(judged.freshCounts.refused.spent, 50);
    assert.equal(judged.freshCounts.refused.capped, 447);
    assert.equal(judged.rollBack, false);
    assert.match(judged.reason, /visitors' reports not counted \(1 distinct visitors from 1 networks/);
    assert.equal(manifest().remotes.blog!.canary?.id, healthy, 'the canary runs on');

    // Page views from one address count a few times per release: a flood does not dilute the error rate.
    const before = judged.freshCounts.views;
    for (let i = 0; i < 40; i++) await pageAs(0, `/blog?search=flood-${i}`, '203.0.113.77');
    const flooded = await judgedOn(healthy, Date.now(), 'the flood', (c) => c.views > before);
    assert.ok(flooded.freshCounts.views <= before + 5, `${flooded.freshCounts.views - before} views of 40 counted`);
    const aborted = await runReleaseCli(site.env, ['abort', 'blog']);
    assert.equal(aborted.status, 0, aborted.stderr);
  });

  it('/metrics needs its token and, parsed as Prometheus text, has every family', async () => {
    assert.equal((await fetch(`${site.baseUrl}/metrics`)).status, 401);
    const res = await fetch(`${site.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.equal(res.status, 200);
    const text = await res.text();
    const families = parsePrometheusTextFormat(text) as {
      name: string;
      type: string;
      metrics: { labels?: Record<string, string>; value?: string; buckets?: object }[];
    }[];
    const family = (name: string) => {
      const f = families.find((x) => x.name === name);
      assert.ok(f, `${name} is exported`);
      return f;
    };
    const blog = manifest().remotes.blog!;
    const broken = blog.history.find((h) => h.by === 'automatic')!.id;
    assert.ok(
      family('http_requests_total').metrics.some((m) => m.labels?.route === '/blog' && m.labels.status === '200'),
    );
    assert.equal(family('ssr_render_seconds').type, 'HISTOGRAM');
    // The parser keeps a histogram's buckets but not its other labels: those are read from the sample lines.
    assert.ok(family('ssr_render_seconds').metrics.some((m) => m.buckets && Object.keys(m.buckets).includes('+Inf')));
    assert.match(
      text,
      new RegExp(
        `^ssr_render_seconds_count\\{remote="blog",release="${blog.active.replace(/\./g, '\\.')}"\\} [1-9]`,
        'm',
      ),
    );
    assert.ok(
      family('cache_lookups_total').metrics.some((m) => m.labels?.cache === 'pages' && m.labels.result === 'hit'),
    );
    family('ssr_breaker_open');
    for (const kind of ['unhandled', 'hydration']) {
      assert.ok(
        family('release_visitor_errors_total').metrics.some(
          (m) =>
            m.labels?.remote === 'blog' && m.labels.release === broken && m.labels.kind === kind && Number(m.value) > 0,
        ),
        `${kind} reports counted`,
      );
    }
    assert.ok(family('release_page_views_total').metrics.some((m) => m.labels?.release === broken));
    // The one address's reports beyond its three per token.
    assert.ok(
      family('release_reports_refused_total').metrics.some(
        (m) => m.labels?.remote === 'blog' && m.labels.reason === 'spent' && Number(m.value) === 50,
      ),
      'refused reports counted by reason',
    );
    assert.ok(
      family('release_info').metrics.some(
        (m) => m.labels?.remote === 'blog' && m.labels.release === blog.active && m.labels.role === 'active',
      ),
    );
    family('process_resident_memory_bytes');

    // The private metrics port: no token there, and nothing but /metrics.
    const internal = await fetch(`http://localhost:${metricsPort}/metrics`);
    assert.equal(internal.status, 200);
    assert.ok(
      (parsePrometheusTextFormat(await internal.text()) as { name: string }[]).some((f) => f.name === 'release_info'),
    );
    assert.equal((await fetch(`http://localhost:${metricsPort}/blog`)).status, 404);
  });
});
