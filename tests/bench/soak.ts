/**
 * The soak: a mixed load (pages, /api/tools, searches with a third of them never asked before) on 20 connections,
 * then the server left idle. Reports requests, errors, p99, the server's RSS after warm-up, at its peak and after the
 * idle spell (read from /proc). Run alone with `pnpm --filter @aitools/tests soak`; `pnpm bench` runs it as a row, for
 * this build and, in turn, for the baseline's (its own checkout's server, started by that checkout's harness).
 * SOAK_HEAP_SNAPSHOTS=1 makes the server write heap snapshots (SIGUSR2) after warm-up, at the end and after idle.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import * as ownHarness from '../e2e/harness';

export interface Soak {
  requests: number;
  errors: number;
  p99: number;
  warmRssMb: number;
  peakRssMb: number;
  idleRssMb: number;
}

const WORDS = [
  'git',
  'note',
  'claude',
  'design',
  'sales',
  'image',
  'code',
  'voice',
  'video',
  'write',
  'chat',
  'data',
  'sql',
  'mcp',
  'agent',
];
const PAGES = [
  '/',
  '/tool/chatgpt',
  '/tool/cursor',
  '/blog',
  '/blog/what-is-model-context-protocol-mcp',
  '/submit',
  '/privacy',
  '/terms',
];

/** A figure of /proc/<pid>/status (VmRSS, RssAnon, RssFile), in MB. */
function statusMb(pid: number, field: string): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}
const rssMb = (pid: number) => statusMb(pid, 'VmRSS');

const METRICS_TOKEN = 'soak-metrics';
/** Where the server's memory is: anonymous (V8's heap, malloc's arenas) against file-backed (code, mapped files),
 *  and V8's own figures from /metrics. */
async function breakdown(baseUrl: string, pid: number): Promise<string> {
  const text = await (
    await fetch(`${baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const mb = (name: string) => {
    const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
    return m ? Math.round(Number(m[1]) / 1048576) : NaN;
  };
  return (
    `RSS ${rssMb(pid)} MB (anonymous ${statusMb(pid, 'RssAnon')}, files ${statusMb(pid, 'RssFile')}); ` +
    `V8 heap used ${mb('nodejs_heap_size_used_bytes')} of ${mb('nodejs_heap_size_total_bytes')} MB, ` +
    `external ${mb('nodejs_external_memory_bytes')} MB`
  );
}

/** The request at position i: two of three from a fixed set of URLs, one of three a search no one asked before. */
function requestAt(i: number): string {
  const word = WORDS[i % WORDS.length]!;
  switch (i % 6) {
    case 0:
      return PAGES[((i / 6) % PAGES.length) | 0]!;
    case 1:
      return '/api/tools';
    case 2:
      return `/api/tools/query?search=${word}`;
    case 3:
      return `/?search=${word}${i}`; // unique: a page never rendered before
    case 4:
      return `/api/tools/query?search=${word}&page=${(i % 3) + 1}`;
    default:
      return `/api/tools/query?search=${word}-${i}`; // unique
  }
}

function load(baseUrl: string, seconds: number, start: number): Promise<autocannon.Result & { next: number }> {
  let i = start;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: baseUrl,
        connections: 20,
        duration: seconds,
        headers: { 'accept-encoding': 'gzip, br' },
        requests: [{ setupRequest: (req) => ({ ...req, path: requestAt(i++) }) }],
      },
      (err, result) => (err ? reject(err) : resolve({ ...result, next: i })),
    );
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function soak(opts: {
  seconds: number;
  idleSeconds: number;
  heapSnapshots?: boolean;
  log?: (line: string) => void;
  /** Another checkout, built, whose server to soak (the bench's baseline); this one by default. */
  tree?: string;
}): Promise<Soak> {
  const log = opts.log ?? (() => {});
  const { freePort, REPO_ROOT, startServerProcess, stopServerProcess } = opts.tree
    ? ((await import(pathToFileURL(join(opts.tree, 'tests', 'e2e', 'harness.ts')).href)) as typeof ownHarness)
    : ownHarness;
  const dir = mkdtempSync(join(tmpdir(), 'aitools-soak-'));
  const port = await freePort();
  const env: Record<string, string> = {
    PORT: String(port),
    DATABASE_PATH: join(dir, 'site.sqlite'),
    RELEASES_DIR: join(REPO_ROOT, 'api', 'var', 'releases'),
    SITE_ORIGIN: `http://localhost:${port}`,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    // The soak's searches all come from one address: a load to measure, not a flood to refuse.
    READ_RATE_LIMIT: '1000000',
    METRICS_TOKEN,
    NODE_OPTIONS: [
      process.env.SOAK_NODE_OPTIONS ?? '',
      opts.heapSnapshots ? `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dir}` : '',
    ]
      .join(' ')
      .trim(),
  };
  const server = await startServerProcess(env);
  const pid = server.pid!;
  const snapshot = async (label: string) => {
    if (!opts.heapSnapshots) return;
    process.kill(pid, 'SIGUSR2');
    await sleep(8000);
    log(
      `heap snapshot (${label}) in ${dir}: ${readdirSync(dir)
        .filter((f) => f.endsWith('.heapsnapshot'))
        .join(', ')}`,
    );
  };
  try {
    const baseUrl = `http://localhost:${port}`;
    const warm = await load(baseUrl, 10, 0);
    const warmRssMb = rssMb(pid);
    log(`warm-up: ${warm.requests.total} requests, ${await breakdown(baseUrl, pid)}`);
    await snapshot('warm');
    let peakRssMb = warmRssMb;
    const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, rssMb(pid))), 500);
    const run = await load(baseUrl, opts.seconds, warm.next);
    clearInterval(sampler);
    peakRssMb = Math.max(peakRssMb, rssMb(pid));
    log(
      `load: ${run.requests.total} requests, p99 ${run.latency.p99} ms, peak RSS ${peakRssMb} MB, now ${rssMb(pid)} MB`,
    );
    log(`loaded: ${await breakdown(baseUrl, pid)}`);
    await snapshot('loaded');
    await sleep(opts.idleSeconds * 1000);
    const idleRssMb = rssMb(pid);
    log(`after ${opts.idleSeconds} s idle: ${await breakdown(baseUrl, pid)}`);
    await snapshot('idle');
    return {
      requests: run.requests.total,
      errors: run.errors + run.timeouts + run.non2xx,
      p99: run.latency.p99,
      warmRssMb,
      peakRssMb,
      idleRssMb,
    };
  } finally {
    await stopServerProcess(server);
    if (!opts.heapSnapshots) rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await soak({
    seconds: Number(process.env.SOAK_SECONDS ?? 180),
    idleSeconds: Number(process.env.SOAK_IDLE_SECONDS ?? 60),
    heapSnapshots: process.env.SOAK_HEAP_SNAPSHOTS === '1',
    log: (line) => console.log(line),
  });
  console.log(JSON.stringify(r));
}
