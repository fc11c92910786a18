/**
 * Prometheus metrics (GET /metrics in the text format, behind METRICS_TOKEN or on METRICS_PORT: never public).
 * One registry per app, so tests can make several.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Manifest } from './releases/manifest';
import type { WatchReport } from './releases/autoRollback';

export interface SiteMetrics {
  registry: Registry;
  requests: Counter<'route' | 'status'>;
  renderSeconds: Histogram<'remote' | 'release'>;
  cacheLookups: Counter<'cache' | 'result'>;
  breakerOpen: Gauge<'remote' | 'release'>;
  visitorErrors: Counter<'remote' | 'release' | 'kind'>;
  pageViews: Counter<'remote' | 'release'>;
  refusedReports: Counter<'remote' | 'release' | 'reason'>;
  /** The MCP endpoint's tools (mcp/server.ts): calls by tool and result (ok, error), and their time. */
  mcpCalls: Counter<'tool' | 'result'>;
  mcpCallSeconds: Histogram<'tool'>;
}

/** The releases being watched for automatic rollback now, with their counts (autoRollback.ts). */
export type Watched = () => Promise<(WatchReport | null)[]>;

export function createMetrics(manifest: () => Manifest, watched: Watched = async () => []): SiteMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  infoGauge(registry, manifest);
  sourcesGauge(registry, watched);
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
    new Counter<L>({ name, help, labelNames, registers });
  const perRelease = ['remote', 'release'] as const;
  return {
    registry,
    requests: counter('http_requests_total', 'Requests answered, by route pattern and status.', ['route', 'status']),
    renderSeconds: new Histogram({
      name: 'ssr_render_seconds',
      help: 'Server render time of pages whose route belongs to a remote, by remote and release.',
      labelNames: perRelease,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 3],
      registers,
    }),
    cacheLookups: counter(
      'cache_lookups_total',
      'Lookups in the reply caches, by cache (reads, pages, files: static files in their best coding) and result (hit, miss).',
      ['cache', 'result'],
    ),
    breakerOpen: new Gauge({
      name: 'ssr_breaker_open',
      help: 'Whether the server-render breaker of a remote release is open (1) or closed (0).',
      labelNames: perRelease,
      registers,
    }),
    visitorErrors: counter(
      'release_visitor_errors_total',
      "Error reports from visitors' browsers, by remote, release and kind.",
      [...perRelease, 'kind'],
    ),
    pageViews: counter(
      'release_page_views_total',
      'Pages served per remote release (the denominator of error rates).',
      [...perRelease],
    ),
    refusedReports: counter(
      'release_reports_refused_total',
      "Visitors' error reports not counted, by remote, release and reason (missing, invalid or expired token, token spent, rate-limited).",
      [...perRelease, 'reason'],
    ),
    mcpCalls: counter('mcp_tool_calls_total', "Calls of the MCP endpoint's tools, by tool and result (ok, error).", [
      'tool',
      'result',
    ]),
    mcpCallSeconds: new Histogram({
      name: 'mcp_tool_call_seconds',
      help: "Time of the MCP endpoint's tool calls, by tool.",
      labelNames: ['tool'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    }),
  };
}

/** release_error_sources{remote, release, source="visitors"|"networks"}: the distinct sources behind the visitors'
 *  reports of each release being watched (both sides), read from the database at each scrape. */
function sourcesGauge(registry: Registry, watched: Watched): void {
  new Gauge({
    name: 'release_error_sources',
    help: "Distinct visitors and networks (IPv4 /24, IPv6 /48) behind the visitors' error reports of each watched release.",
    labelNames: ['remote', 'release', 'source'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const w of await watched()) {
        if (!w) continue;
        for (const [release, counts] of [
          [w.fresh, w.freshCounts],
          [w.stable, w.stableCounts],
        ] as const) {
          this.set({ remote: w.remote, release, source: 'visitors' }, counts.sources.visitors);
          this.set({ remote: w.remote, release, source: 'networks' }, counts.sources.networks);
        }
      }
    },
  });
}

/** release_info{remote, release, role="active"|"canary"} 1, read from the manifest at each scrape. */
function infoGauge(registry: Registry, manifest: () => Manifest): void {
  new Gauge({
    name: 'release_info',
    help: 'The active release, and the canary with its share in percent, of each remote (value 1).',
    labelNames: ['remote', 'release', 'role', 'percent'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [remote, state] of Object.entries(manifest().remotes)) {
        this.set(
          {
            remote,
            release: state.active,
            role: 'active',
            percent: state.canary ? String(100 - state.canary.percent) : '100',
          },
          1,
        );
        if (state.canary)
          this.set({ remote, release: state.canary.id, role: 'canary', percent: String(state.canary.percent) }, 1);
      }
    },
  });
}

/** Answers a scrape: with a token configured, only a request bearing it (401 otherwise). */
export async function serveMetrics(
  metrics: SiteMetrics,
  req: IncomingMessage,
  res: ServerResponse,
  token?: string,
): Promise<void> {
  if (token !== undefined) {
    const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''))?.[1] ?? '');
    const expected = Buffer.from(token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(401, {
        'Content-Type': 'text/plain',
        'WWW-Authenticate': 'Bearer realm="metrics"',
        'Cache-Control': 'no-store',
      });
      return void res.end('Send the metrics token as Authorization: Bearer <METRICS_TOKEN>.\n');
    }
  }
  const body = await metrics.registry.metrics();
  res.writeHead(200, { 'Content-Type': metrics.registry.contentType, 'Cache-Control': 'no-store' });
  res.end(body);
}
