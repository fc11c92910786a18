/**
 * `pnpm bench`: one run, one table. Builds this checkout (and the baseline commit, cached), serves the production
 * build with a temp database, measures, prints the table and writes the same rows to bench/last-run.json.
 * Figures only: nothing here passes or fails on a timing.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../e2e/browser';
import { REPO_ROOT, type Site } from '../e2e/harness';
import { listToolSummaries } from '../../api/src/tools/repository';
import { readToolQuery } from '../../contracts/src/toolQuery';
import { findTools, searchTools } from '../../api/src/tools/search';
import { searchRows } from './search';
import { buildMonolith, serveMonolith, type MonolithSite } from '../monolith/serve';
import { DEFAULT_BASELINE, prepareBaseline, startBaselineSite, type Baseline } from './baseline';
import { firstVisitJs, keystrokeToResults, phoneTimesInTurn, type PhoneTimes } from './browser';
import { serveFloor } from './floor';
import { PlainChromium } from './plainChromium';
import { buildCatalogueDatabase, SYNTHETIC_SLUG_PREFIX } from './catalogue';
import { KEYSTROKE_BASELINE, keystrokesInTurn, type KeystrokeFigures } from './keystrokes';
import { lighthouse } from './lighthouse';
import { markdownTimes } from './markdown';
import { INTERACTIONS, inpRuns, inpText, lighthouseRuns, lighthouseRunsText } from './phones';
import { pagePayload } from './payload';
import { buildCurrent, drawPictures, startCurrent } from './site';
import { summarize } from './stats';
import { fig, formatTable, kB, msText, whole, type Cell, type Column, type Row } from './table';
import { serverPid, throughput, warmUp, type RequestShape, type Throughput } from './throughput';
import { soak, type Soak } from './soak';
import { checksRows } from './checks';
import { syncRows } from './sync';
import { bustingRun } from './busting';
import { startVarnish, varnishInstalled } from '../e2e/varnish';

const SECTIONS = [
  'throughput',
  'busting',
  'mcp',
  'lighthouse',
  'js',
  'phone',
  'phones',
  'payload',
  'search',
  'markdown',
  'soak',
  'checks',
  'sync',
] as const;
type Section = (typeof SECTIONS)[number];

const HELP = `pnpm bench [options]
  --baseline <ref>      the "before" column of the throughput, Lighthouse, phone and soak rows (default ${DEFAULT_BASELINE});
                        built once into the OS temp dir and reused
  --no-baseline         skip it (its column prints n/a)
  --baseline-url <url>  use a running site for that column instead (e.g. a build on another Node); its server must
                        run on this machine for the CPU-per-answer figure
  --no-monolith         skip the monolith column (by default the monolith build of tests/monolith is built and
                        served in front of this build's server)
  --monolith-url <url>  use a running monolith build of the site for that column instead
  --only <sections>     comma list of ${SECTIONS.join(', ')} (default: all)
env: BENCH_SECONDS (load per URL, default 8), BENCH_WARM_SECONDS (unmeasured load per URL and build before the
     throughput rows, default 15), BENCH_RUNS (phone visits per route, and Lighthouse and INP runs of the phones
     section, default 5),
     SOAK_SECONDS (the soak's load, default 180), SOAK_IDLE_SECONDS (its idle spell, default 60),
     SEARCH_SIZES (the search section's catalogue sizes, default 156,10000,100000), SEARCH_ENGINES (sqlite,postgres), SEARCH_SHAPES (registry,hard)`;

const { values: opts } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    baseline: { type: 'string', default: DEFAULT_BASELINE },
    'no-baseline': { type: 'boolean', default: false },
    'baseline-url': { type: 'string' },
    'monolith-url': { type: 'string' },
    'no-monolith': { type: 'boolean', default: false },
    only: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (opts.help) {
  console.log(HELP);
  process.exit(0);
}
const only = new Set((opts.only?.split(',') ?? SECTIONS).map((s) => s.trim()));
for (const s of only)
  if (!(SECTIONS as readonly string[]).includes(s)) throw new Error(`unknown section "${s}" (${SECTIONS.join(', ')})`);
const want = (s: Section) => only.has(s);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** Load on each throughput URL of each build before any is measured: Node 24's compilers take 10-20 s of load to
 *  reach a steady state (docs/performance.md, "Node 24 against Node 20"), so a build started later would pay for
 *  its warm-up in its figures. */
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 15);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const THROUGHPUT_PATHS = ['/api/tools', '/api/tools/chatgpt', '/', '/tool/chatgpt', '/blog'];
const STATIC_ROW = 'GET /assets/… (a static file: the first shell script the page names)';
/** The MCP row's search: a task phrasing, asked of search_tools and of the JSON query the home page uses. */
const MCP_SEARCH = 'image generation';
const KEY_PAGES = ['/', '/tool/chatgpt', '/blog', '/blog/what-is-model-context-protocol-mcp', '/submit'];
const PHONE_ROUTES = ['/', '/tool/cursor', '/blog', '/blog/what-is-model-context-protocol-mcp', '/submit', '/privacy'];
const CATALOGUE_SIZE = 10_000;
/** Typed in the directory's search, each in a fresh page: words found in the seed and in the generated catalogue. */
const TYPED_WORDS = ['github', 'notion', 'claude', 'design', 'sales'];

const rows: Row[] = [];
const notes: string[] = [];
const started = Date.now();
const log = (line: string) => console.log(`[${Math.round((Date.now() - started) / 1000)}s] ${line}`);

/** One figure; a failure becomes n/a in the table and a note under it. */
async function measure<T>(label: string, fn: () => Promise<T> | T, text: (v: T) => string): Promise<Cell> {
  try {
    const v = await fn();
    return fig(text(v), v);
  } catch (err) {
    notes.push(`${label}: ${(err as Error).message.split('\n')[0]}`);
    return null;
  }
}

/** The sites a per-page figure is taken on: this build, and a monolith when one is plugged in. */
let monolith: MonolithSite | null = null;
function comparedSites(current: Site): [Column, string | undefined][] {
  return [
    ['current', current.baseUrl],
    ['monolith', opts['monolith-url']?.replace(/\/$/, '') ?? monolith?.baseUrl],
  ];
}

async function perSite(
  current: Site,
  label: string,
  fn: (base: string) => Promise<Cell>,
): Promise<Partial<Record<Column, Cell>>> {
  const cells: Partial<Record<Column, Cell>> = {};
  for (const [column, base] of comparedSites(current)) {
    cells[column] = base ? await fn(base) : null;
    if (!base && column === 'monolith' && !notes.some((n) => n.startsWith('monolith')))
      notes.push('monolith: not measured (--no-monolith)');
  }
  return cells;
}

/** First paint and code ready per phone route on one build; with `floorBase` (this build's floor, floor.ts), each
 *  route's visits alternate with its floor's, which adds a row of the floor's code ready. */
async function phoneRows(
  browser: PlainChromium,
  column: Column,
  base: string | null,
  floorBase?: string,
): Promise<void> {
  for (const route of PHONE_ROUTES) {
    const urls = base ? [base + route, ...(floorBase ? [floorBase + route] : [])] : [];
    const t = base
      ? await measure(
          `phone ${route} (${column})`,
          () => phoneTimesInTurn(browser, urls, RUNS),
          () => '',
        )
      : null;
    const [page, floor] = (t?.value as PhoneTimes[] | undefined) ?? [];
    for (const [what, key] of [
      ['first paint', 'paint'],
      ['code ready', 'ready'],
    ] as const) {
      setCell('phone', `${what} ${route}`, column, page ? fig(msText(page[key]), page[key]) : null);
    }
    if (floorBase)
      setCell(
        'phone',
        `code ready ${route}, floor (React alone)`,
        column,
        floor ? fig(msText(floor.ready), floor) : null,
      );
  }
}

/** Lighthouse's blocking time over RUNS runs per key page, and INP of three interactions with the CPU slowed four
 *  times, on each site given, taken in turn. */
async function phonesRows(browser: Browser, sites: Partial<Record<Column, string>>): Promise<void> {
  const columns = Object.keys(sites) as Column[];
  for (const path of KEY_PAGES) {
    const urls = Object.fromEntries(columns.map((c) => [c, sites[c]! + path]));
    const cells = await measure(
      `phones lighthouse ${path}`,
      () => lighthouseRuns(urls, RUNS, log),
      () => '',
    );
    const runs = cells?.value as Record<Column, Parameters<typeof lighthouseRunsText>[0]> | undefined;
    for (const c of columns)
      setCell('phones', `Lighthouse ×${RUNS} ${path}`, c, runs ? fig(lighthouseRunsText(runs[c]), runs[c]) : null);
  }
  const inp = await measure(
    'phones INP',
    () => inpRuns(browser, sites as Record<string, string>, RUNS, log),
    () => '',
  );
  const samples = inp?.value as Record<Column, Record<(typeof INTERACTIONS)[number], number[]>> | undefined;
  for (const what of INTERACTIONS)
    for (const c of columns)
      setCell(
        'phones',
        `INP ×${RUNS}, CPU ÷4: ${what}`,
        c,
        samples ? fig(inpText(samples[c][what]), samples[c][what]) : null,
      );
}

/** A row's cell for one column (the row is added the first time). */
function setCell(section: string, what: string, column: Column, cell: Cell): void {
  let row = rows.find((r) => r.section === section && r.what === what);
  if (!row) rows.push((row = { section, what, cells: {} }));
  row.cells[column] = cell;
}

/** The first of the shell's scripts the page names (in its page-code script): the static file every throughput row is
 *  compared with. */
async function staticFilePath(base: string): Promise<string> {
  const html = await (await fetch(base + '/')).text();
  const path = /\/assets\/[\w.-]+\.js/.exec(html)?.[0];
  if (!path) throw new Error('the home page names no /assets script to serve as the static file');
  return path;
}

const cpu = (t: Throughput) => (t.cpuMicros === null ? '' : ` · ${whole(t.cpuMicros)} µs CPU/answer`);

/** Two measurements of one row on one server, as one: the mean rate and CPU, the worse p99, every failure. */
function combine(a: Throughput, b: Throughput): Throughput {
  const cpuMicros = a.cpuMicros !== null && b.cpuMicros !== null ? (a.cpuMicros + b.cpuMicros) / 2 : null;
  return { rps: (a.rps + b.rps) / 2, p99: Math.max(a.p99, b.p99), failures: a.failures + b.failures, cpuMicros };
}

/**
 * Requests per second of each throughput path and of a static file on each server, each with its share of its
 * server's static rate. With both builds up, each row is measured in turn on this build, the before build, the before
 * build and this build again (half the time each): a drift of the machine over the run then moves both alike.
 */
async function throughputRows(sites: Partial<Record<Column, string | null>>): Promise<void> {
  const columns = Object.keys(sites) as Column[];
  const statics: Partial<Record<Column, string>> = {};
  const pids: Partial<Record<Column, number | null>> = {};
  for (const c of columns) {
    if (!sites[c]) continue;
    statics[c] = await staticFilePath(sites[c]);
    pids[c] = serverPid(sites[c]);
  }
  const order = columns.length > 1 ? [...columns, ...[...columns].reverse()] : columns;
  const seconds = columns.length > 1 ? Math.max(1, SECONDS / 2) : SECONDS;
  const results = new Map<Column, Map<string, Throughput | null>>(columns.map((c) => [c, new Map()]));
  const rows = [...THROUGHPUT_PATHS.map((p) => [`GET ${p}`, p]), [STATIC_ROW, '']] as const;
  if (WARM_SECONDS > 0)
    for (const column of columns)
      for (const [, path] of rows) {
        if (!sites[column] || !(path || statics[column])) continue;
        log(`throughput: warming ${path || statics[column]} (${column}, ${WARM_SECONDS} s)`);
        await warmUp(sites[column] + (path || statics[column]), WARM_SECONDS);
      }
  for (const [what, path] of rows) {
    for (const column of order) {
      const base = sites[column];
      const url = base ? base + (path || statics[column]) : null;
      log(
        `throughput: ${what === STATIC_ROW ? `GET ${statics[column] ?? '(static)'}` : what} (${column}, ${seconds} s)`,
      );
      const held = results.get(column)!;
      if (!url || held.get(what) === null) {
        held.set(what, null);
        continue;
      }
      try {
        const r = await throughput(url, seconds, pids[column] ?? null);
        const earlier = held.get(what);
        held.set(what, earlier ? combine(earlier, r) : r);
      } catch (err) {
        notes.push(`throughput ${what} (${column}): ${(err as Error).message.split('\n')[0]}`);
        held.set(what, null);
      }
    }
  }
  for (const [column, held] of results) {
    const staticRps = held.get(STATIC_ROW)?.rps;
    for (const [what, t] of held) {
      const share =
        t && staticRps && what !== STATIC_ROW ? ` · ${Math.round((100 * t.rps) / staticRps)}% of static` : '';
      const failed = t?.failures ? ` · ${t.failures} failed` : '';
      setCell(
        'throughput',
        what,
        column,
        t ? fig(`${whole(t.rps)} req/s · p99 ${msText(t.p99)}${share}${cpu(t)}${failed}`, { ...t, staticRps }) : null,
      );
    }
  }
}

/** Pages through the shared cache: Varnish with deploy/varnish/site.vcl in front of this build's server. */
const SHARED_CACHE_PATHS = ['/', '/tool/chatgpt'];

/**
 * The rows "through the shared cache", beside the origin's: the rate Varnish answers a page at, and what the origin
 * spends per answer then (its CPU time over the answers Varnish gave; Varnish's own CPU is not in it).
 */
async function sharedCacheRows(site: Site): Promise<void> {
  if (!varnishInstalled()) {
    notes.push('through the shared cache: not measured (apt-get install varnish varnish-modules)');
    return;
  }
  const varnish = await startVarnish(site.env.PORT!);
  try {
    const pid = serverPid(site.baseUrl);
    for (const path of SHARED_CACHE_PATHS) {
      const what = `GET ${path} through the shared cache (Varnish)`;
      log(`throughput: ${what} (current, ${SECONDS} s)`);
      const cell = await measure(
        `throughput ${what}`,
        () => throughput(varnish.url + path, SECONDS, pid),
        (t) =>
          `${whole(t.rps)} req/s · p99 ${msText(t.p99)}${cpu(t)} at the origin${t.failures ? ` · ${t.failures} failed` : ''}`,
      );
      setCell('throughput', what, 'current', cell);
    }
  } finally {
    await varnish.stop();
  }
}

/** The page flooded in the cache-busting rows, and the page a visitor loads meanwhile. */
const BUSTED_PAGE = '/tool/chatgpt';
const VISITOR_PAGE = '/blog';

/**
 * Cache busting: a flood of 20 connections on BUSTED_PAGE at its plain address, then with a new ignored parameter per
 * request, at the origin and through Varnish; the flood's answers per second and a visitor's p95 meanwhile.
 */
async function bustingRows(site: Site): Promise<void> {
  const varnish = varnishInstalled() ? await startVarnish(site.env.PORT!) : null;
  if (!varnish)
    notes.push('cache busting through the shared cache: not measured (apt-get install varnish varnish-modules)');
  try {
    for (const [where, base] of [
      ['origin', site.baseUrl],
      ...(varnish ? [['through Varnish', varnish.url]] : []),
    ] as const) {
      for (const [kind, path] of [
        ['plain address', () => BUSTED_PAGE],
        ['a new ignored parameter per request', (i: number) => `${BUSTED_PAGE}?utm_source=x${i}`],
      ] as const) {
        const what = `flood of GET ${BUSTED_PAGE}, ${kind} (${where})`;
        log(`busting: ${what}, ${SECONDS} s`);
        const cell = await measure(
          `busting ${what}`,
          () => bustingRun(base, path, base + VISITOR_PAGE, SECONDS),
          (b) =>
            `${whole(b.floodRps)} answered/s · visitor's p95 ${msText(b.visitorP95)} (${b.visits} visits)` +
            (b.floodFailures ? ` · ${b.floodFailures} failed` : ''),
        );
        setCell('busting', what, 'current', cell);
      }
    }
  } finally {
    await varnish?.stop();
  }
}

function lighthouseCell(url: string): Promise<Cell> {
  return measure(
    `lighthouse ${url}`,
    () => lighthouse(url),
    (l) => `${l.performance.toFixed(2)} · LCP ${msText(l.lcp)} · FCP ${msText(l.fcp)} · CLS ${l.cls.toFixed(3)}`,
  );
}

/** Keystroke to results in the browser (localhost, no throttling): typing "github" into the home page's search. */
async function keystrokeRow(browser: Browser, baseUrl: string, tools: number): Promise<Row> {
  log(`payload: keystroke to results at ${whole(tools)} tools`);
  const cell = await measure(
    `keystroke ${tools}`,
    () => keystrokeToResults(browser, baseUrl, TYPED_WORDS),
    (k) => `median ${msText(k.median)} · p95 ${msText(k.p95)} (${k.keys} keys)`,
  );
  return {
    section: 'payload',
    what: `keystroke to results at ${whole(tools)} tools (browser)`,
    cells: { current: cell },
  };
}

/** Keystroke to results at the generated catalogue, a new reply per key, this build and the build before the ranked
 *  search in turn (keystrokes.ts); its "before" is that build, not the baseline of the other rows. */
async function keystrokesRow(browser: Browser, dir: string, catalogue: string, tools: number): Promise<Row> {
  const tree = keystrokeBaseline && 'tree' in keystrokeBaseline ? keystrokeBaseline.tree : null;
  const text = (k: KeystrokeFigures) => `median ${msText(k.median)} · p95 ${msText(k.p95)} (${k.keys} keys)`;
  const figures = await keystrokesInTurn(browser, dir, catalogue, CATALOGUE_SIZE, tree, log);
  return {
    section: 'payload',
    what: `keystroke to results at ${whole(tools)} tools, a new reply per key (browser; before: ${KEYSTROKE_BASELINE}, the build before the ranked search, in turn)`,
    cells: {
      current: fig(text(figures.current), figures.current),
      ...(tree ? { baseline: figures.baseline ? fig(text(figures.baseline), figures.baseline) : null } : {}),
    },
  };
}

// The description checks need no site: measured first, and alone they print without a build.
if (want('checks')) {
  log('checks: the description rules on tests/checks/poisoned.json and the real inspections (in process)');
  rows.push(...checksRows());
  if (only.size === 1) {
    console.log(`\n${formatTable(rows, { current: 'this build', baseline: '', monolith: '' })}`);
    process.exit(0);
  }
}

// Builds first: nothing is measured while they run.
log('build: this checkout (npm run build)');
buildCurrent();
const withMonolith = !opts['no-monolith'] && !opts['monolith-url'] && (want('js') || want('lighthouse'));
if (withMonolith) {
  log('build: the monolith (shell and remotes bundled together, no federation)');
  buildMonolith();
}
let baseline: Baseline | null = null;
if (want('phone') || want('phones') || want('throughput') || want('lighthouse') || want('soak')) {
  baseline = opts['no-baseline']
    ? { ref: opts.baseline, reason: 'skipped (--no-baseline)' }
    : opts['baseline-url']
      ? { ref: opts['baseline-url'], url: opts['baseline-url'].replace(/\/$/, '') }
      : prepareBaseline(opts.baseline, log);
  if ('reason' in baseline) notes.push(`before (${baseline.ref}): ${baseline.reason.split('\n')[0]}`);
}
/** The keystroke row's "before" (keystrokes.ts): built here too, so nothing is measured while it builds. */
let keystrokeBaseline: Baseline | null = null;
if (want('payload') && !opts['no-baseline']) {
  keystrokeBaseline = prepareBaseline(KEYSTROKE_BASELINE, log);
  if ('reason' in keystrokeBaseline)
    notes.push(`keystrokes, before (${KEYSTROKE_BASELINE}): ${keystrokeBaseline.reason.split('\n')[0]}`);
}

/** search_tools over POST /mcp (one stateless JSON-RPC call, as an agent's client sends it) against
 *  GET /api/tools/query with the same text: answers per second and the server's CPU per answer, this build only. */
async function mcpRows(base: string): Promise<void> {
  const pid = serverPid(base);
  const call: RequestShape = {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_tools', arguments: { text: MCP_SEARCH, limit: 24 } },
    }),
  };
  for (const [what, url, request] of [
    [`POST /mcp search_tools "${MCP_SEARCH}"`, `${base}/mcp`, call],
    [`GET /api/tools/query?search=${MCP_SEARCH}`, `${base}/api/tools/query?search=${encodeURIComponent(MCP_SEARCH)}`],
  ] as const) {
    log(`mcp: ${what} (${SECONDS} s)`);
    try {
      const t = await throughput(url, SECONDS, pid, request);
      const failed = t.failures ? ` · ${t.failures} failed` : '';
      rows.push({
        section: 'mcp',
        what,
        cells: { current: fig(`${whole(t.rps)} calls/s · p99 ${msText(t.p99)}${cpu(t)}${failed}`, { ...t }) },
      });
    } catch (err) {
      notes.push(`mcp ${what}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
}

const browser = await launchBrowser();
// The phone rows' visits: a Chromium with no debugger on the page (plainChromium.ts).
const phone = want('phone') ? await PlainChromium.launch() : null;
try {
  const site = await startCurrent();
  try {
    log('settle: drawing the seed pictures the server would otherwise draw in the background');
    await drawPictures(site.baseUrl);
    if (withMonolith) monolith = await serveMonolith(site.baseUrl);

    if (want('throughput')) {
      // Both builds are served at once for this section, and measured in turn (throughputRows).
      const before = baseline && 'tree' in baseline ? await startBaselineSite(baseline.tree) : null;
      const beforeUrl = baseline && 'url' in baseline ? baseline.url : before?.baseUrl;
      try {
        if (beforeUrl) {
          log(`before (${baseline!.ref}): ${before ? 'served by its own harness; ' : ''}drawing its pictures too`);
          await drawPictures(beforeUrl);
        }
        await throughputRows({ current: site.baseUrl, ...(baseline ? { baseline: beforeUrl ?? null } : {}) });
      } finally {
        await before?.stop();
      }
      await sharedCacheRows(site);
    }
    if (want('mcp')) await mcpRows(site.baseUrl);
    if (want('busting')) await bustingRows(site);
    if (want('phones')) {
      // Both builds are served at once and measured run by run in turn (phones.ts).
      const before = baseline && 'tree' in baseline ? await startBaselineSite(baseline.tree) : null;
      const beforeUrl = baseline && 'url' in baseline ? baseline.url : before?.baseUrl;
      try {
        await phonesRows(browser, { current: site.baseUrl, ...(beforeUrl ? { baseline: beforeUrl } : {}) });
      } finally {
        await before?.stop();
      }
    }
    if (want('payload')) {
      log('payload: / at the seed');
      const cell = await measure(
        'payload /',
        () => pagePayload(site.baseUrl + '/'),
        (p) => `HTML ${kB(p.htmlGzip)} gzip · page state ${kB(p.state)} (${kB(p.stateGzip)} gzip)`,
      );
      const tools = ((await (await fetch(`${site.baseUrl}/api/tools`)).json()) as { data: unknown[] }).data.length;
      rows.push({ section: 'payload', what: `/ at ${whole(tools)} tools`, cells: { current: cell } });
      rows.push(await keystrokeRow(browser, site.baseUrl, tools));
    }
    if (want('js')) {
      for (const path of KEY_PAGES) {
        log(`js: first visit to ${path}`);
        const cells = await perSite(site, `js ${path}`, (base) =>
          measure(
            `js ${path}`,
            () => firstVisitJs(browser, base + path),
            (j) => `${kB(j.bytes)} (${j.files} files)`,
          ),
        );
        rows.push({ section: 'first-visit JS', what: path, cells });
      }
    }
    if (want('phone')) {
      log(`phone: this build, ${PHONE_ROUTES.length} routes × ${RUNS} visits`);
      const floor = await serveFloor(site.baseUrl);
      try {
        await phoneRows(phone!, 'current', site.baseUrl, floor.baseUrl);
      } finally {
        await floor.stop();
      }
    }
    if (want('lighthouse')) {
      for (const path of KEY_PAGES) {
        log(`lighthouse: ${path}`);
        const cells = await perSite(site, `lighthouse ${path}`, (base) => lighthouseCell(base + path));
        rows.push({ section: 'lighthouse', what: path, cells });
      }
    }
  } finally {
    await monolith?.stop();
    await site.stop();
  }

  if (baseline && (want('phone') || want('lighthouse') || want('js'))) {
    const before = 'tree' in baseline ? await startBaselineSite(baseline.tree) : null;
    if (before) log(`before (${baseline.ref}): served by its own harness`);
    const beforeUrl = 'url' in baseline ? baseline.url : (before?.baseUrl ?? null);
    try {
      if (want('phone')) await phoneRows(phone!, 'baseline', beforeUrl);
      if (want('js'))
        for (const path of KEY_PAGES) {
          log(`js: first visit to ${path} (before)`);
          const cell = beforeUrl
            ? await measure(
                `js ${path} (before)`,
                () => firstVisitJs(browser, beforeUrl + path),
                (j) => `${kB(j.bytes)} (${j.files} files)`,
              )
            : null;
          setCell('first-visit JS', path, 'baseline', cell);
        }
      if (want('lighthouse'))
        for (const path of KEY_PAGES) {
          log(`lighthouse: ${path} (before)`);
          setCell('lighthouse', path, 'baseline', beforeUrl ? await lighthouseCell(beforeUrl + path) : null);
        }
    } finally {
      await before?.stop();
    }
  }

  if (want('payload')) {
    log(`payload: generating ${whole(CATALOGUE_SIZE)} tools into a bench-only database`);
    const dir = mkdtempSync(join(tmpdir(), 'aitools-bench-catalogue-'));
    try {
      const db = await buildCatalogueDatabase(join(dir, 'site.sqlite'), CATALOGUE_SIZE);
      const time = async (fn: () => unknown, runs: number) => {
        const samples: number[] = [];
        for (let i = 0; i < runs; i++) {
          const t0 = performance.now();
          await fn();
          samples.push(performance.now() - t0);
        }
        return summarize(samples);
      };
      // The directory query per keystroke (in process): the prefixes of "code agent" in turn, as GET
      // /api/tools/query answers them (the database ranks the search and cuts its page), without its reply cache.
      const tools = await listToolSummaries(db);
      const keystrokes = Array.from({ length: 'code agent'.length }, (_, i) => 'code agent'.slice(0, i + 1));
      let typed = 0;
      const keystroke = await time(
        () => searchTools(db, readToolQuery(new URLSearchParams({ search: keystrokes[typed++ % keystrokes.length] }))),
        110,
      );
      rows.push({
        section: 'payload',
        what: `query per keystroke at ${whole(tools.length)} tools (in process)`,
        cells: {
          current: fig(`median ${keystroke.median.toFixed(1)} ms · p95 ${keystroke.p95.toFixed(1)} ms`, keystroke),
        },
      });
      const search: Record<string, number> = {};
      for (const q of ['github', 'finance workflows']) search[q] = (await time(() => findTools(db, q), 30)).median;
      rows.push({
        section: 'payload',
        what: `?search= at ${whole(tools.length)} tools (in process)`,
        cells: {
          current: fig(
            Object.entries(search)
              .map(([q, m]) => `"${q}" ${m.toFixed(1)} ms`)
              .join(' · '),
            search,
          ),
        },
      });
      await db.destroy();
      // The keystroke row's servers start from this catalogue as generated (keystrokes.ts), not as a server left it.
      const generated = join(dir, 'generated.sqlite');
      copyFileSync(join(dir, 'site.sqlite'), generated);

      const big = await startCurrent(join(dir, 'site.sqlite'));
      try {
        log(`payload: / at ${whole(CATALOGUE_SIZE)} tools`);
        const cell = await measure(
          'payload / (10,000)',
          () => pagePayload(big.baseUrl + '/'),
          (p) => `HTML ${kB(p.htmlGzip)} gzip · page state ${kB(p.state)} (${kB(p.stateGzip)} gzip)`,
        );
        rows.push({ section: 'payload', what: `/ at ${whole(tools.length)} tools`, cells: { current: cell } });
      } finally {
        await big.stop();
      }
      rows.push(await keystrokesRow(browser, dir, generated, tools.length));
    } finally {
      rmSync(dir, { recursive: true, force: true });
      // The server's background warm-up drew some synthetic tools' pictures; they are not the site's.
      const pictures = join(REPO_ROOT, 'api', 'var', 'images', 'tool-social');
      for (const f of existsSync(pictures) ? readdirSync(pictures, { withFileTypes: true }) : [])
        if (f.name.startsWith(SYNTHETIC_SLUG_PREFIX)) rmSync(join(pictures, f.name), { force: true });
    }
  }
  if (want('sync')) {
    log('sync: a first sync of 20,000 records from an upstream instance, on Postgres');
    rows.push(...(await syncRows(log)));
  }
  if (want('search')) {
    const sizes = (process.env.SEARCH_SIZES ?? '156,10000,100000').split(',').map(Number);
    rows.push(...(await searchRows(sizes, log)));
  }
  if (want('markdown')) {
    log('markdown: hostile 1 MB post bodies through the blog parser (in process)');
    const cell = await measure(
      'markdown',
      () => markdownTimes(),
      (times) => {
        const slowest = times.reduce((a, b) => (b.median > a.median ? b : a));
        return `slowest ${msText(slowest.median)} (${slowest.label}) · median of all ${msText(summarize(times.map((t) => t.median)).median)}`;
      },
    );
    rows.push({
      section: 'markdown',
      what: `parse a hostile 1 MB post body (9 shapes, median of 5 each)`,
      cells: { current: cell },
    });
  }
  if (want('soak')) {
    const seconds = Number(process.env.SOAK_SECONDS ?? 180);
    const idleSeconds = Number(process.env.SOAK_IDLE_SECONDS ?? 60);
    const text = (r: Soak) =>
      `${whole(r.requests)} requests · ${r.errors} errors · p99 ${msText(r.p99)} · RSS warm ${r.warmRssMb} MB, peak ${r.peakRssMb} MB, after ${idleSeconds} s idle ${r.idleRssMb} MB`;
    // Each build on a fresh server of its own, in turn: this one, then the baseline's.
    log(`soak: ${seconds} s of mixed load on 20 connections, then ${idleSeconds} s idle (its own server)`);
    const cells: Partial<Record<Column, Cell>> = {
      current: await measure('soak', () => soak({ seconds, idleSeconds, log }), text),
    };
    if (baseline && 'tree' in baseline) {
      log(`soak, before (${baseline.ref}): the same on its own server`);
      const tree = baseline.tree;
      cells.baseline = await measure('soak (before)', () => soak({ seconds, idleSeconds, log, tree }), text);
    }
    rows.push({
      section: 'soak',
      what: 'memory: RSS under pages, /api/tools and searches (a third never asked before), at its peak and after idle',
      cells,
    });
  }
} finally {
  await browser.close();
  await phone?.close();
}

const headers: Record<Column, string> = {
  current: 'this build',
  baseline: `before (${baseline && 'commit' in baseline ? baseline.commit.slice(0, 7) : (baseline?.ref ?? opts.baseline)})`,
  monolith: 'monolith',
};
// Grouped by section, in the order docs/performance.md lists them.
const order = [
  'throughput',
  'busting',
  'lighthouse',
  'first-visit JS',
  'phone',
  'phones',
  'payload',
  'search',
  'markdown',
  'checks',
  'sync',
];
rows.sort((a, b) => order.indexOf(a.section) - order.indexOf(b.section));
console.log(`\n${formatTable(rows, headers)}`);
for (const n of notes) console.log(`note: ${n}`);
const out = join(import.meta.dirname, 'last-run.json');
writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), cores: cpus().length, node: process.version, seconds: SECONDS, runs: RUNS, baseline, columns: headers, rows, notes }, null, 2)}\n`,
);
console.log(`\n${Math.round((Date.now() - started) / 1000)} s in all; rows as JSON in ${out}`);
