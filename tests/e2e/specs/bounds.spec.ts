/**
 * What a client adds to a request does not change its cost (docs/architecture.md, Caching; docs/operations.md,
 * Rate limits), against the production build:
 * - /tool/<slug>?utm_source=a and ?utm_source=b are one page-cache entry: one render, then a hit (the cache's own
 *   counters in /metrics);
 * - a flood of new search texts from one address gets 429 with Retry-After after READ_RATE_LIMIT, while that
 *   address's cached pages and another address are answered as before;
 * - a server started with the console's port taken prints one line naming CONSOLE_PORT and exits non-zero.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_DIR, freePort, SERVER, startSite, type Site } from '../harness';

const METRICS_TOKEN = 'bounds-spec-metrics';
/** Reads per address per minute that no cache answers. */
const READ_RATE_LIMIT = 10;

let site: Site;

/** A sample of /metrics: `name{labels}` -> value. */
async function metrics(): Promise<Map<string, number>> {
  const res = await fetch(`${site.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  assert.equal(res.status, 200);
  const samples = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    const m = /^(\w+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (m) samples.set(m[1]!, Number(m[2]));
  }
  return samples;
}

/** Sums the samples of a family whose labels include all of `labels`. */
const sum = (samples: Map<string, number>, family: string, labels: string[]) =>
  [...samples]
    .filter(([k]) => k.startsWith(`${family}{`) && labels.every((l) => k.includes(l)))
    .reduce((a, [, v]) => a + v, 0);

describe('what a client adds to an address', () => {
  before(async () => {
    // The addresses are X-Forwarded-For's, as behind one proxy (docs/operations.md, Behind a proxy).
    site = await startSite({ extraEnv: { METRICS_TOKEN, READ_RATE_LIMIT: String(READ_RATE_LIMIT), TRUST_PROXY: '1' } });
  });
  after(async () => {
    await site?.stop();
  });

  it('/tool/<slug>?utm_source=a and ?utm_source=b are answered from one page-cache entry', async () => {
    const tools = (await (await fetch(`${site.baseUrl}/api/tools`)).json()) as { data: { slug: string }[] };
    const slug = tools.data[1]!.slug;
    const pages = (s: Map<string, number>, result: string) =>
      sum(s, 'cache_lookups_total', ['cache="pages"', `result="${result}"`]);
    const renders = (s: Map<string, number>) => sum(s, 'ssr_render_seconds_count', ['remote="directory"']);
    const before = await metrics();
    const a = await fetch(`${site.baseUrl}/tool/${slug}?utm_source=a`, { headers: { 'X-Forwarded-For': '192.0.2.1' } });
    const afterA = await metrics();
    const b = await fetch(`${site.baseUrl}/tool/${slug}?utm_source=b`, { headers: { 'X-Forwarded-For': '192.0.2.2' } });
    const afterB = await metrics();
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    const [htmlA, htmlB] = [await a.text(), await b.text()];
    assert.equal(htmlB, htmlA, 'the same page');
    assert.equal(b.headers.get('etag'), a.headers.get('etag'));
    // The first: a miss and a render; the second: a hit, no render, no new miss.
    assert.equal(pages(afterA, 'miss') - pages(before, 'miss'), 1);
    assert.equal(renders(afterA) - renders(before), 1);
    assert.equal(pages(afterB, 'hit') - pages(afterA, 'hit'), 1);
    assert.equal(pages(afterB, 'miss'), pages(afterA, 'miss'));
    assert.equal(renders(afterB), renders(afterA));
    // The canonical link names the page alone.
    const canonical = /<link data-head rel="canonical" href="([^"]*)">/.exec(htmlA)?.[1];
    assert.equal(new URL(canonical!).pathname + new URL(canonical!).search, `/tool/${slug}`);
  });

  it('answers a flood of new search texts from one address with 429 after the limit, and another address as before', async () => {
    const from = (address: string, path: string) =>
      fetch(site.baseUrl + path, { headers: { 'X-Forwarded-For': address, Accept: 'text/html' } });
    const flooder = '198.51.100.7';
    const statuses: number[] = [];
    for (let i = 0; i < READ_RATE_LIMIT + 5; i++) {
      const res = await from(flooder, `/?search=flood-${i}`);
      statuses.push(res.status);
      if (res.status === 429) {
        const wait = Number(res.headers.get('retry-after'));
        assert.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`);
        assert.equal(res.headers.get('cache-control'), 'no-store');
        assert.match(await res.text(), /<h1>Too many requests<\/h1>/);
      } else await res.arrayBuffer();
    }
    assert.deepEqual(statuses, [...Array<number>(READ_RATE_LIMIT).fill(200), ...Array<number>(5).fill(429)]);
    // The API's reads share the budget, and say it in JSON.
    const api = await from(flooder, '/api/tools/query?search=flood-api');
    assert.equal(api.status, 429);
    assert.equal(
      ((await api.json()) as { error: string }).error,
      'Too many requests. Please wait a minute and try again.',
    );
    // What a cache holds is still that address's, and another address is answered as before.
    assert.equal((await from(flooder, '/?search=flood-0&utm_source=x')).status, 200);
    const other = await from('198.51.100.8', '/?search=flood-11');
    assert.equal(other.status, 200);
    assert.match(await other.text(), /flood-11/);
  });

  it("prints one line naming CONSOLE_PORT and exits non-zero when the console's port is taken", async () => {
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, r));
    const taken = (holder.address() as { port: number }).port;
    const dir = mkdtempSync(join(tmpdir(), 'bounds-port-'));
    try {
      const child = spawn(process.execPath, SERVER, {
        cwd: API_DIR,
        env: {
          ...process.env,
          PORT: String(await freePort()),
          CONSOLE_PORT: String(taken),
          DATABASE_PATH: join(dir, 'site.sqlite'),
          RELEASES_DIR: site.env.RELEASES_DIR!,
          NODE_ENV: 'production',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (b: Buffer) => (out += b));
      child.stderr.on('data', (b: Buffer) => (err += b));
      const [code] = (await once(child, 'exit')) as [number | null];
      assert.equal(code, 1);
      assert.deepEqual(err.trimEnd().split('\n'), [
        `The server did not start: port ${taken} is already in use: set CONSOLE_PORT to a free port, or stop what uses it`,
      ]);
      assert.doesNotMatch(out, /EADDRINUSE|\bat /);
    } finally {
      holder.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
