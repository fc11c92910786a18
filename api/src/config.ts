import { join, resolve } from 'node:path';
import { VAR_DIR } from './paths';

/** The automatic rollback rule: when a new release is clearly worse than the stable one (releases/autoRollback.ts). */
export interface RollbackRule {
  /** Page views the new release needs before it is judged. */
  minViews: number;
  /** Errors the new release needs before it is judged. */
  minErrors: number;
  /** Its error rate must be more than this many times the stable one's ... */
  ratio: number;
  /** ... and higher by more than this many percentage points. */
  minDiffPoints: number;
  /** Visitors' reports count only from at least this many distinct visitors ... */
  minVisitors: number;
  /** ... in at least this many distinct networks (IPv4 /24, IPv6 /48); the server's own errors always count. */
  minNetworks: number;
  /** How long after a full activation the release is still watched. */
  windowMs: number;
}

/** Everything the server reads from the environment, in one place. */
export interface ServerConfig {
  port: number;
  /** DATABASE_URL (a Postgres server) when set, else the SQLite file DATABASE_PATH (or ':memory:'). */
  database: string;
  releasesDir: string;
  /** Public origin for canonical links (forced to https in links). */
  siteOrigin: string;
  /** Base URL of the API for the browser; '' = same origin. */
  apiBase: string;
  contactEmail: string;
  analyticsEndpoint?: string;
  /** Optional email-marketing subscribe endpoint; early-access signups are forwarded there too. */
  emailMarketingUrl?: string;
  /** Development server for /api/auth, /api/admin, /api/contact (unset: same API; docs/product.md, API calls). */
  devAuthServer?: string;
  /** Remotes served from their package's dist/ (a watch build) instead of the manifest's release. */
  devRemotes: string[];
  /** Express `trust proxy`: false (the default: the socket address is the client), a hop count, or addresses. */
  trustProxy: TrustProxy;
  /** Valid posts allowed per client address per minute, for each form separately. */
  writeRateLimit: number;
  /** Valid analytics events allowed per client address per minute. */
  eventsRateLimit: number;
  /** Requests to the MCP endpoint (/mcp) allowed per client address per minute. */
  mcpRateLimit: number;
  /** Reads that miss every cache (a render, a query of the data) allowed per client address per minute. */
  readRateLimit: number;
  /** Events kept: the newest this many rows ... */
  eventsMaxRows: number;
  /** ... received within this many days. */
  eventsMaxAgeDays: number;
  /** Each route's server work (its remote's module and loader) gets this long; then the page is served without it. */
  renderBudgetMs: number;
  /** Consecutive server-render failures or timeouts of a remote that open its breaker ... */
  breakerFailures: number;
  /** ... for this long: its routes are served at once without a server render, then one request tries again. */
  breakerCoolDownMs: number;
  /** PREVIEW_SECRET: signs preview links (releases/preview.ts); every instance needs the same one. Unset: a secret
   *  kept in var/preview-secret (one machine). */
  previewSecret?: string;
  /** Largest release upload (gzip bytes) the release API reads; a larger body gets 413. */
  releaseUploadBytes: number;
  /** Release uploads allowed per token per minute. */
  releaseUploadsPerMinute: number;
  /** METRICS_TOKEN: GET /metrics on the site answers only with it (Bearer); unset: no /metrics on the site's port. */
  metricsToken?: string;
  /** METRICS_PORT: /metrics also on this port (no token; keep the port private), unset: none. */
  metricsPort?: number;
  /** SIGNALS_SECRET: signs the report tokens of pages and keys the hashes of report sources
   *  (releases/signalTokens.ts); every instance needs the same one. Unset: a secret kept in var/signals-secret
   *  (one machine). */
  signalsSecret?: string;
  /** Error reports (beacons) allowed per client address per minute. */
  signalsRateLimit: number;
  /** How often signal counts are added to the database. */
  signalsFlushMs: number;
  /** Signal counts kept this many days. */
  signalsRetentionDays: number;
  /** Distinct (remote, release, kind, minute) counts held in memory between flushes. */
  signalsMaxKeys: number;
  /** The automatic rollback rule (releases/autoRollback.ts). */
  rollback: RollbackRule & { checkMs: number; enabled: boolean };
  /** The operator console (console/app.ts; docs/operations.md, The console). */
  console: ConsoleConfig;
  /** The scheduled jobs (jobs/; docs/operations.md, Jobs). */
  jobs: JobsConfig;
  /** POST_SCHEDULER_MS: how often the publish-posts job publishes the scheduled posts whose time came (jobs/postsJob.ts). */
  postSchedulerMs: number;
  logLevel: string;
  /** LOG_FORMAT: json, or pretty (readable lines); pretty by default when the output is a terminal. */
  logFormat: 'json' | 'pretty';
  isProduction: boolean;
  /** SEARCH_MEANING (on or off; on by default): the search's meaning guess (tools/meaning/; docs/operations.md,
   *  Search meaning); off saves its thread's memory, about 110 MB, on a small machine. */
  searchMeaning: boolean;
  /** PURGE_URLS: shared caches in front (comma-separated URLs) asked to purge pages by key when a release or the
   *  data changes (edge/purges.ts); unset: none. */
  purgeUrls: string[];
  /** Following upstream registries (registry/sync.ts; docs/operations.md, Following upstream registries). */
  registrySync: RegistrySyncConfig;
  /** How MCP servers' packages are fetched and run for their inspection (registry/sandbox.ts). */
  inspection: InspectionConfig;
  /** Requests to remote MCP servers (http/ssrfGuard.ts): OUTBOUND_ALLOW (host names, addresses, CIDR ranges that
   *  may be reached although not public), OUTBOUND_MAX_BYTES, OUTBOUND_TIMEOUT_MS. */
  outbound: { allow: string[]; maxBytes: number; timeoutMs: number; maxRedirects: number };
}

export interface RegistrySyncConfig {
  /** REGISTRY_UPSTREAMS: base addresses added to the followed upstreams at start when missing (admins edit the rest
   *  in the console). */
  upstreams: string[];
  /** REGISTRY_SYNC_PAGES: the pages per run those upstreams start with. */
  pagesPerRun: number;
  /** REGISTRY_SYNC_TIMEOUT_SECONDS: one page's whole answer, headers and body, within this long. */
  timeoutMs: number;
  /** REGISTRY_SYNC_PAGE_BYTES: the most of one page's answer read; a longer one refuses the sync. (How often the
   *  `sync` job runs is JOB_SYNC_EVERY, as for every job.) */
  maxBytes: number;
  /** OUTBOUND_ALLOW, as every outgoing request reads it: an upstream that is not public is followed only when named. */
  allow: string[];
}

/** The inspection sandbox's settings (docs/mcp.md, "The inspection sandbox"). */
export interface InspectionConfig {
  /** NPM_REGISTRY_URL: the site's one npm registry (no trailing slash): packages are fetched from it for their
   *  inspection (their install scripts off), and the versions job asks it for their latest releases. */
  npmRegistry: string;
  /** INSPECT_BWRAP: the bubblewrap command; where it cannot run, inspections refuse to run unattended. */
  bwrap: string;
  /** INSPECT_TIMEOUT_SECONDS: the whole exchange (start, initialize, the lists); then the sandbox is killed. */
  timeoutMs: number;
  /** INSPECT_OUTPUT_BYTES: what the server may write to stdout in all; more ends the run. */
  outputBytes: number;
  /** INSPECT_MEMORY_MB: each sandboxed process's address space (RLIMIT_AS; Node reserves about 1.4 GB of it). */
  memoryMb: number;
  /** INSPECT_PROCESSES: processes and threads the sandbox's own user may have (RLIMIT_NPROC of an unprivileged uid). */
  processes: number;
  /** INSPECT_CPU_SECONDS: CPU time of each sandboxed process. */
  cpuSeconds: number;
  /** INSPECT_FILES_MB: the size of each throwaway folder (home, working folder, /tmp) and of any file written. */
  filesMb: number;
}

/** A package registry's base address from `name` (else `fallback`), refused unless http(s), with no trailing slash. */
function registryUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const url = env[name] || fallback;
  if (!/^https?:\/\//.test(url) || !URL.canParse(url)) throw new Error(`${name} must be an http(s) URL, got "${url}"`);
  return url.replace(/\/+$/, '');
}

export function inspectionConfig(env: NodeJS.ProcessEnv = process.env): InspectionConfig {
  // The setting had a second name for the inspections alone: one that is still set would be silently ignored.
  if (env.INSPECT_NPM_REGISTRY)
    throw new Error('INSPECT_NPM_REGISTRY is now NPM_REGISTRY_URL (one npm registry for inspections and versions)');
  return {
    npmRegistry: registryUrl(env, 'NPM_REGISTRY_URL', 'https://registry.npmjs.org'),
    bwrap: env.INSPECT_BWRAP || 'bwrap',
    timeoutMs: positiveInt(env, 'INSPECT_TIMEOUT_SECONDS', 120) * 1000,
    outputBytes: positiveInt(env, 'INSPECT_OUTPUT_BYTES', 8 * 1024 * 1024),
    memoryMb: positiveInt(env, 'INSPECT_MEMORY_MB', 2560),
    processes: positiveInt(env, 'INSPECT_PROCESSES', 64),
    cpuSeconds: positiveInt(env, 'INSPECT_CPU_SECONDS', 60),
    filesMb: positiveInt(env, 'INSPECT_FILES_MB', 64),
  };
}

export type TrustProxy = boolean | number | string;

export interface JobsConfig {
  /** JOBS=off: this instance runs no scheduled job (a "run now" still runs). */
  enabled: boolean;
  /** JOB_<NAME>_EVERY (the name upper-cased, dashes as underscores): milliseconds, or a cron expression in UTC. */
  every: Record<string, number | string>;
  /** Postgres: JOBS_POLL_SECONDS, how often an idle worker asks the queue for work. */
  pollSeconds: number;
  /** Postgres: JOBS_HEARTBEAT_SECONDS (at least 10): a run that stops beating this long is retried elsewhere. */
  heartbeatSeconds: number;
  /** Postgres: JOBS_SUPERVISE_SECONDS, how often the queue looks for dead runs. */
  superviseSeconds: number;
  /** Postgres: JOBS_SCHEMA, the schema of the queue's own tables (one per site sharing a database). */
  queueSchema: string;
  /** PYPI_URL: the Python package index the versions job asks (its JSON API). */
  pypi: string;
}

export interface ConsoleConfig {
  /** CONSOLE_PORT: the console's own listener (npm start: 8081); unset: none (it may still be served as CONSOLE_ORIGIN
   *  by a proxy to that port). */
  port?: number;
  /** CONSOLE_ORIGIN: where operators reach it (its hostname is the passkeys' RP ID); http://localhost:<port> by default. */
  origin: string;
  /** A session ends after this long without a request ... */
  idleMs: number;
  /** ... and this long after sign-in in any case. */
  absoluteMs: number;
  /** Sign-in attempts per client address per minute ... */
  signInPerAddress: number;
  /** ... and per person (the attempts their passkey signed). */
  signInPerPerson: number;
}

/**
 * TRUST_PROXY as Express reads `trust proxy`: unset, "false" or "0" trusts no proxy (X-Forwarded-For is
 * ignored, so a client cannot choose its own address); a number trusts that many hops; anything else is a
 * comma list of addresses, CIDR ranges or the names loopback, linklocal, uniquelocal. "true" trusts every
 * hop (only when the proxy overwrites X-Forwarded-For).
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .join(',');
}

/** A positive whole number from the environment, or a clear refusal at start-up. */
function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return n;
}

/** A positive number (decimals allowed) from the environment. */
function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8080);
  // Relative paths mean: from where the operator ran the command (pnpm runs scripts in the package folder).
  const path = (value: string | undefined, fallback: string) =>
    value ? resolve(env.INIT_CWD ?? process.cwd(), value) : fallback;
  const outbound = outboundConfig(env);
  return {
    port,
    database:
      env.DATABASE_URL ||
      (env.DATABASE_PATH === ':memory:' ? ':memory:' : path(env.DATABASE_PATH, join(VAR_DIR, 'data', 'site.sqlite'))),
    releasesDir: path(env.RELEASES_DIR, join(VAR_DIR, 'releases')),
    // The address this server answers at (it speaks plain HTTP; TLS is a proxy's): preview links made on a plain
    // start must open. Canonical links are https whatever this says (canonicalUrl).
    siteOrigin: env.SITE_ORIGIN ?? `http://localhost:${port}`,
    apiBase: env.API_BASE ?? '',
    contactEmail: env.CONTACT_EMAIL ?? 'hello@aitoolsdirectory.example',
    // Our own API is the analytics service by default; an empty ANALYTICS_ENDPOINT turns events off.
    analyticsEndpoint: env.ANALYTICS_ENDPOINT === undefined ? '/api/events' : env.ANALYTICS_ENDPOINT || undefined,
    emailMarketingUrl: env.EMAIL_MARKETING_URL || undefined,
    devAuthServer: env.DEV_AUTH_SERVER || undefined,
    devRemotes: (env.DEV_REMOTES ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    writeRateLimit: positiveInt(env, 'WRITE_RATE_LIMIT', 20),
    eventsRateLimit: positiveInt(env, 'EVENTS_RATE_LIMIT', 120),
    mcpRateLimit: positiveInt(env, 'MCP_RATE_LIMIT', 120),
    readRateLimit: positiveInt(env, 'READ_RATE_LIMIT', 120),
    eventsMaxRows: positiveInt(env, 'EVENTS_MAX_ROWS', 100_000),
    eventsMaxAgeDays: positiveInt(env, 'EVENTS_MAX_AGE_DAYS', 90),
    renderBudgetMs: positiveInt(env, 'RENDER_BUDGET_MS', 1500),
    breakerFailures: positiveInt(env, 'BREAKER_FAILURES', 3),
    breakerCoolDownMs: positiveInt(env, 'BREAKER_COOLDOWN_MS', 30_000),
    previewSecret: env.PREVIEW_SECRET || undefined,
    releaseUploadBytes: positiveInt(env, 'RELEASE_UPLOAD_BYTES', 32 * 1024 * 1024),
    releaseUploadsPerMinute: positiveInt(env, 'RELEASE_UPLOADS_PER_MINUTE', 10),
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: env.METRICS_PORT ? positiveInt(env, 'METRICS_PORT', 0) : undefined,
    signalsSecret: env.SIGNALS_SECRET || undefined,
    signalsRateLimit: positiveInt(env, 'SIGNALS_RATE_LIMIT', 60),
    signalsFlushMs: positiveInt(env, 'SIGNALS_FLUSH_MS', 10_000),
    signalsRetentionDays: positiveInt(env, 'SIGNALS_RETENTION_DAYS', 14),
    signalsMaxKeys: positiveInt(env, 'SIGNALS_MAX_KEYS', 10_000),
    rollback: {
      enabled: env.AUTO_ROLLBACK !== 'off',
      minViews: positiveInt(env, 'ROLLBACK_MIN_VIEWS', 200),
      minErrors: positiveInt(env, 'ROLLBACK_MIN_ERRORS', 10),
      ratio: positiveNumber(env, 'ROLLBACK_RATIO', 2),
      minDiffPoints: positiveNumber(env, 'ROLLBACK_MIN_DIFF_POINTS', 1),
      minVisitors: positiveInt(env, 'ROLLBACK_MIN_VISITORS', 10),
      minNetworks: positiveInt(env, 'ROLLBACK_MIN_NETWORKS', 5),
      windowMs: positiveInt(env, 'ROLLBACK_WINDOW_MINUTES', 30) * 60_000,
      checkMs: positiveInt(env, 'ROLLBACK_CHECK_MS', 30_000),
    },
    console: consoleConfig(env),
    jobs: jobsConfig(env),
    postSchedulerMs: positiveInt(env, 'POST_SCHEDULER_MS', 15_000),
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    logFormat:
      env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty'
        ? env.LOG_FORMAT
        : process.stdout.isTTY
          ? 'pretty'
          : 'json',
    isProduction: env.NODE_ENV === 'production',
    searchMeaning: onOff(env, 'SEARCH_MEANING', true),
    purgeUrls: urlList(env, 'PURGE_URLS'),
    registrySync: {
      upstreams: urlList(env, 'REGISTRY_UPSTREAMS'),
      pagesPerRun: positiveInt(env, 'REGISTRY_SYNC_PAGES', 20),
      timeoutMs: positiveInt(env, 'REGISTRY_SYNC_TIMEOUT_SECONDS', 30) * 1000,
      maxBytes: positiveInt(env, 'REGISTRY_SYNC_PAGE_BYTES', 4 * 1024 * 1024),
      allow: outbound.allow,
    },
    inspection: inspectionConfig(env),
    outbound,
  };
}

/** The SSRF guard's settings (http/ssrfGuard.ts; docs/operations.md, "Outgoing requests"). */
export function outboundConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig['outbound'] {
  return {
    allow: (env.OUTBOUND_ALLOW ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    maxBytes: positiveInt(env, 'OUTBOUND_MAX_BYTES', 4 * 1024 * 1024),
    timeoutMs: positiveInt(env, 'OUTBOUND_TIMEOUT_MS', 15_000),
    maxRedirects: 5,
  };
}

/** A switch: `on` or `off` (unset: `fallback`); anything else is refused at start-up. */
function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'on' && raw !== 'off') throw new Error(`${name} must be on or off, got "${raw}"`);
  return raw === 'on';
}

function urlList(env: NodeJS.ProcessEnv, name: string): string[] {
  const urls = (env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const url of urls)
    if (!/^https?:\/\//.test(url) || !URL.canParse(url))
      throw new Error(`${name} must be comma-separated http(s) URLs, got "${url}"`);
  return urls;
}

function jobsSchema(value: string | undefined): string {
  const schema = value || 'pgboss';
  if (!/^[a-z_][a-z0-9_]{0,49}$/.test(schema))
    throw new Error(`JOBS_SCHEMA must be a lower-case SQL name (letters, digits, _), got "${schema}"`);
  return schema;
}

function jobsConfig(env: NodeJS.ProcessEnv): JobsConfig {
  const every: Record<string, number | string> = {};
  for (const [key, value] of Object.entries(env)) {
    const name = /^JOB_([A-Z0-9_]+)_EVERY$/.exec(key)?.[1];
    if (!name || !value) continue;
    every[name.toLowerCase().replace(/_/g, '-')] = /^\d+$/.test(value.trim()) ? Number(value) : value.trim();
  }
  const heartbeatSeconds = positiveInt(env, 'JOBS_HEARTBEAT_SECONDS', 30);
  if (heartbeatSeconds < 10) throw new Error(`JOBS_HEARTBEAT_SECONDS must be at least 10, got "${heartbeatSeconds}"`);
  return {
    enabled: env.JOBS !== 'off',
    every,
    pollSeconds: positiveNumber(env, 'JOBS_POLL_SECONDS', 2),
    heartbeatSeconds,
    superviseSeconds: positiveInt(env, 'JOBS_SUPERVISE_SECONDS', 30),
    queueSchema: jobsSchema(env.JOBS_SCHEMA),
    pypi: registryUrl(env, 'PYPI_URL', 'https://pypi.org'),
  };
}

function consoleConfig(env: NodeJS.ProcessEnv): ConsoleConfig {
  const port = env.CONSOLE_PORT ? positiveInt(env, 'CONSOLE_PORT', 0) : undefined;
  const origin = env.CONSOLE_ORIGIN || `http://localhost:${port ?? 8081}`;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    throw new Error(`CONSOLE_ORIGIN must be an origin such as https://console.example.com, got "${origin}"`);
  }
  if (parsed.origin !== origin.replace(/\/$/, ''))
    throw new Error(`CONSOLE_ORIGIN must be an origin (scheme, host and port only), got "${origin}"`);
  return {
    port,
    origin: parsed.origin,
    idleMs: positiveInt(env, 'CONSOLE_IDLE_MINUTES', 30) * 60_000,
    absoluteMs: positiveInt(env, 'CONSOLE_SESSION_HOURS', 12) * 3_600_000,
    signInPerAddress: positiveInt(env, 'CONSOLE_SIGN_IN_LIMIT', 30),
    signInPerPerson: positiveInt(env, 'CONSOLE_SIGN_IN_PERSON_LIMIT', 10),
  };
}
