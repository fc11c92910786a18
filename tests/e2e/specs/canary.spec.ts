/**
 * Canary releases that watch themselves, on a server of its own (a copy of the suite's store) with low rollback
 * thresholds: a healthy blog canary at 50% splits fresh browsers and keeps each on its side, and is not rolled back;
 * a blog release built to throw in the browser (and to mismatch its server HTML), started as a canary, is rolled back
 * on its own once enough visitors have hit it (their unhandled-error and hydration reports); /metrics has every family.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
// @ts-expect-error -- the parser ships no types; its output is checked below
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { launchBrowser, openPage, waitForRoute } from '../browser';
import { freePort, REPO_ROOT, runReleaseCli, startSite, type Site } from '../harness';

const METRICS_TOKEN = 'canary-spec-metrics';
const FAULT = 'injected canary fault';
/** Pages of the blog list a visitor loads in turn. */
const PATHS = ['/blog', '/blog?search=ai', '/blog?page=1'];

let site: Site;
let releasesDir: string;
let browser: Browser;
let checkouts: string;
let metricsPort: number;

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

/** A fresh browser (its own cookies) loads /blog `loads` times; returns the blog release of each load, as the page
 *  names it, after checking the browser loaded exactly that release's files; and the errors it saw. */
async function visitor(
  loads: number,
  opts: { waitForReport?: string } = {},
): Promise<{ ids: string[]; errors: string[] }> {
  const { page, errors } = await openPage(browser);
  const ids: string[] = [];
  try {
    for (let i = 0; i < loads; i++) {
      const files: string[] = [];
      const onRequest = (r: { url(): string }) => void (r.url().includes('/remotes/blog/') && files.push(r.url()));
      page.on('request', onRequest);
      const report = opts.waitForReport
        ? page.waitForRequest((r) => r.url().endsWith('/api/signals'), { timeout: 15_000 })
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
      if (report && id === opts.waitForReport) await report;
      page.off('request', onRequest);
      assert.ok(
        files.length > 0 && files.every((u) => u.includes(`/remotes/blog/${id}/`)),
        `the browser loads the files of ${id}, the release its page names`,
      );
      ids.push(id);
    }
  } finally {
    await page.context().close();
  }
  return { ids, errors };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
      METRICS_TOKEN,
      METRICS_PORT: String(metricsPort),
    },
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await site?.stop();
  rmSync(join(releasesDir, '..'), { recursive: true, force: true });
  rmSync(checkouts, { recursive: true, force: true });
});

describe('canary releases', () => {
  it('a healthy canary at 50% splits 20 fresh browsers, each sticky over several pages, and is not rolled back', async () => {
    const stable = manifest().remotes.blog!.active;
    const healthy = await canary(checkoutBlog('healthy'), 50);
    const sides: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { ids, errors } = await visitor(3);
      assert.equal(new Set(ids).size, 1, `visitor ${i} stays on one release over its pages (${ids.join(', ')})`);
      assert.deepEqual(errors, [], 'each side hydrates with the release its page was rendered with');
      sides.push(ids[0]!);
    }
    const onCanary = sides.filter((id) => id === healthy).length;
    console.log(
      `  ${onCanary} of 20 browsers on the canary ${healthy}, ${20 - onCanary} on ${stable} (${sides.map((id) => (id === healthy ? 'c' : 's')).join('')})`,
    );
    assert.ok(sides.every((id) => id === healthy || id === stable));
    assert.ok(onCanary >= 4 && onCanary <= 16, `between 4 and 16 of 20 on the canary (got ${onCanary})`);

    // Crawlers, and clients that keep no cookies, get the stable release with no cookie.
    const navigation = { 'Sec-Fetch-Dest': 'document' };
    for (const headers of [{ ...navigation, 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' }, {}]) {
      const res = await fetch(`${site.baseUrl}/blog`, { headers });
      assert.equal(res.headers.get('set-cookie'), null);
      assert.ok((await res.text()).includes(`/remotes/blog/${stable}/remoteEntry.js`));
    }

    // Enough views for a judgement (10), no errors: still a canary after several checks.
    await sleep(2500);
    assert.equal(manifest().remotes.blog!.canary?.id, healthy, 'the healthy canary runs on');
    const listed = await runReleaseCli(site.env, ['list', 'blog']);
    assert.match(listed.stdout, new RegExp(`canary: ${healthy} serves 50% of visitors`));
    assert.match(
      listed.stdout,
      new RegExp(`watching canary ${healthy} since .*: error rate 0\\.0% \\(0 errors / \\d+ views\\)`),
    );
    const aborted = await runReleaseCli(site.env, ['abort', 'blog']);
    assert.equal(aborted.status, 0, aborted.stderr);
    assert.equal(manifest().remotes.blog!.canary, undefined);
  });

  it('a blog release that throws in the browser, as a canary, is rolled back on its own; the history says why; everyone gets the stable release', async () => {
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
    let canaryVisitors = 0;
    let visitors = 0;
    while (manifest().remotes.blog!.canary && visitors < 40) {
      const { ids, errors } = await visitor(2, { waitForReport: broken });
      visitors++;
      if (ids[0] === broken) {
        canaryVisitors++;
        assert.ok(
          errors.some((e) => e.includes(FAULT)),
          'the canary throws in the browser',
        );
      }
    }
    await sleep(1500);
    const state = manifest().remotes.blog!;
    console.log(`  rolled back after ${visitors} visitors (${canaryVisitors} on the canary)`);
    assert.equal(state.canary, undefined, 'the canary was ended');
    assert.equal(state.active, stable);
    const last = state.history.at(-1)!;
    assert.equal(last.action, 'abort');
    assert.equal(last.by, 'automatic');
    assert.match(
      last.note ?? '',
      new RegExp(
        `^automatic rollback: canary ${broken} of blog, error rate \\d+\\.\\d% \\(\\d+ errors in \\d+ views\\) against 0\\.0% \\(0 errors in \\d+ views\\)`,
      ),
    );
    const listed = await runReleaseCli(site.env, ['list', 'blog']);
    assert.ok(
      listed.stdout.includes(`! `) && listed.stdout.includes(last.note!),
      'pnpm releases shows the automatic action',
    );

    // New visitors, and those who had the canary, get the stable release.
    for (let i = 0; i < 4; i++) assert.deepEqual((await visitor(1)).ids, [stable]);

    // It is not started again without a person's force.
    const again = await runReleaseCli(site.env, ['rollback', 'blog', '--to', broken]);
    assert.notEqual(again.status, 0);
    assert.match(again.stderr, /rolled back automatically .*force/);
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
    const broken = blog.history.at(-1)!.id;
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
