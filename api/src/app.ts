import express, { type Express, type RequestHandler } from 'express';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import compression from 'compression';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ServerConfig } from './config';
import { sql } from 'kysely';
import { dialectOf, type DB } from './db/connection';
import { databaseRateLimits } from './middleware/rateLimitStore';
import { REMOTE_NAMES, SHELL_DIST, VAR_DIR } from './paths';
import { allowOnly, errorHandler, notFoundApi, refuseNul } from './middleware/errors';
import { securityHeaders } from './middleware/security';
import { logAnswered, requestLogger } from './middleware/logger';
import { findServers } from './tools/search';
import { admitted, createRateLimits, type RateLimitStoreFactory } from './middleware/rateLimit';
import type { ManifestStore } from './releases/manifest';
import { DEV_RELEASE_ID, devRelease, remoteBaseUrl, REMOTE_ENTRY_FILE, type PublicRelease } from './releases/layout';
import { checkRelease } from './releases/health';
import { createReleaseServing, RECHECK_MS } from './releases/serving';
import { importServerEntry } from './ssr/serverEntries';
import { createPreviews, previewSecret, PREVIEW_PATH, STOP_PREVIEW_PATH } from './releases/preview';
import { releasesRouter } from './releases/router';
import { ROUTE_TABLE } from '@aitools/platform/routes';
import { oldSlugRedirect } from './tools/aliases';
import { RETRY_PATH, sendRetryEntry } from './releases/retryEntry';
import { toolsRouter } from './tools/router';
import { blogRouter } from './blog/router';
import { formsRouter } from './forms/router';
import { eventsRouter } from './events/router';
import { seoRouter } from './seo/router';
import { registryRouter } from './registry/router';
import { registryClientError, registryCors, registryNotFound } from './registry/cors';
import { feedsRouter } from './feeds/router';
import { mcpRouter } from './mcp/router';
import { createPageRenderer } from './ssr/renderPage';
import { cachedPages, servedReleasesKey, type CachedPages } from './ssr/pageCache';
import { createReplyCache, isPrecompressed, replayableAnswers } from './http/cachedResponse';
import { createStaticFileCache } from './http/staticFiles';
import { dataVersion } from './content/dataVersion';
import { loadLogoMap } from './tools/logos';
import { createImageService } from './images/service';
import { imagesRouter } from './images/router';
import { createCanaries, isCrawler } from './releases/canary';
import { createSignals, signalsRouter, type Signals } from './releases/signals';
import { createSignalTokens, type SignalTokens } from './releases/signalTokens';
import { clientAddress, viewCounter } from './releases/views';
import { createRollbackMonitor, type RollbackMonitor } from './releases/autoRollback';
import { fileManifestStore } from './releases/manifestFile';
import { diskReleaseStore } from './releases/diskReleaseStore';
import { materialiseServed } from './releases/openReleaseStore';
import type { ReleaseStore } from './releases/releaseStore';
import { createMetrics, serveMetrics, type SiteMetrics } from './metrics';
import { routeLabel } from './http/routeLabel';
import { createConsoleApp } from './console/app';
import { reportInstance } from './console/instances';
import { createPostPreviews, POST_PREVIEW_PATH } from './blog/preview';
import { createJobRunner, type JobRunner } from './jobs/runner';
import { siteJobs } from './jobs/siteJobs';
import { DATA_KEY, noStore, privateWithCookies, releaseKey } from './edge/headers';
import { createPurger, PURGE_POLL_MS, queuePurge } from './edge/purges';
import { queueReleasePurges } from './releases/releaseChange';
import { SIDE_PATH, sideOf, sideRoute } from './releases/side';

export interface AppDeps {
  config: ServerConfig;
  db: DB;
  logger: Logger;
  /** Tests of the API alone skip page rendering (which needs the built shell). */
  pages?: boolean;
  /** Where the release manifest lives (main.ts: rows on Postgres); manifest.json in the releases folder by default. */
  manifests?: ManifestStore;
  /** Where release files are stored (main.ts: rows on Postgres); the releases folder itself by default. */
  files?: ReleaseStore;
  /** Where rate-limit counts live (default: this process's memory); a shared store makes one limit for all processes. */
  rateLimitStore?: RateLimitStoreFactory;
  /** The console's built browser app (default: console/dist; tests give their own). */
  consoleDist?: string;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Served by express.static from release folders and the shell's build. */
const STATIC_FILES = /^\/(?:assets|remotes)\//;
/** A page's route pattern (as routeLabel names it) to the remote that renders it. */
const REMOTE_OF_ROUTE = new Map(ROUTE_TABLE.map((r) => [r.path, r.remote]));
/** An answer that showed a visitor the page (its content, its not-found screen or a failure of its release), not a
 *  redirect or a refused request. */
const isPageShown = (status: number) =>
  status === 200 || status === 304 || status === 404 || status === 410 || status >= 500;

/** A page's form post, urlencoded or multipart: room for every field at its maximum length in percent-escaped
 *  non-Latin text (up to 9 bytes a character), refused with 413 beyond. */
const PAGE_FORM_LIMIT = '64kb';
const PAGE_METHODS = 'GET, HEAD, POST';
/** Memory for cached reads and for cached pages (each; bodies with their gzip and brotli bytes). */
const CACHE_BYTES = 16 * 1024 * 1024;
/** Memory for static files in their best coding: every release a page may name, about 0.5 MB each in both codings
 *  (docs/performance.md, "Static files"). */
const STATIC_CACHE_BYTES = 8 * 1024 * 1024;

export interface SiteApp extends Express {
  /** What the HTTP server runs (main.ts): the front lane, then Express. */
  handler: RequestListener;
  metrics: SiteMetrics;
  signals: Signals;
  /** Signs the report tokens of pages (releases/signalTokens.ts). */
  signalTokens: SignalTokens;
  rollbacks: RollbackMonitor;
  /** The scheduled jobs (jobs/runner.ts): main.ts starts their schedule. */
  jobs: JobRunner;
  /** The operator console: its own app, for its own listener (main.ts, CONSOLE_PORT); never mounted on this one. */
  console: Express;
  /** Stops the rollback checks and the watch on the release folders, and writes the signal counts held in memory. */
  stop(): Promise<void>;
}

/** Composition only: security, API routes, remote release files, shell assets, then server-rendered pages. */
export async function createApp({
  config,
  db,
  logger,
  pages = true,
  rateLimitStore,
  manifests,
  files,
  consoleDist,
}: AppDeps): Promise<SiteApp> {
  const app = express();
  app.disable('x-powered-by');
  // Off unless TRUST_PROXY says which proxies set X-Forwarded-For: otherwise any client picks its own address.
  app.set('trust proxy', config.trustProxy);
  // One manifest store for the app: a release, rollback or canary written through it is served from the next request.
  const manifestStore = manifests ?? fileManifestStore(config.releasesDir);
  // The releases folder is the store, or (Postgres) this instance's local copy of the rows, filled on first need.
  const releaseFiles = files ?? diskReleaseStore(config.releasesDir);
  // Which release serves each remote (validated manifest, last good state, fallbacks), worked out when the release
  // files or the manifest change: one for pages, /remotes.json and the release files, so they always agree.
  const serving = createReleaseServing({
    releasesDir: config.releasesDir,
    manifests: manifestStore,
    fetch: releaseFiles.fetches ? (remote, id) => releaseFiles.materialise(remote, id) : undefined,
    remotes: REMOTE_NAMES,
    devRemotes: config.devRemotes,
    logger,
    importEntry: importServerEntry,
    // Pages a shared cache keeps that name a broken release go (each instance that finds it asks; the queue merges).
    onBroken: (remote, id) =>
      void queuePurge(db, [releaseKey(remote, id)]).catch((err: unknown) =>
        logger.warn({ err, remote, release: id }, 'could not queue the purge of a broken release'),
      ),
  });
  const manifestNow = () => serving.manifest().manifest;
  // A copy fetched from the database is kept whole by itself: what the manifest serves is fetched as soon as it
  // changes, and checked again as often as the serving choice (a folder removed or damaged while running).
  const keepWhole = (log?: Logger) => void materialiseServed(releaseFiles, manifestStore.read().manifest, log);
  // (The re-check says nothing: what it would say was said when the manifest changed or at the start.)
  const keepTimer = releaseFiles.fetches ? setInterval(() => keepWhole(), RECHECK_MS).unref() : null;
  // A change may follow a prune through another instance: its copies of releases no longer stored go too.
  const tidy = () =>
    void releaseFiles.tidy().then(
      (removed) => removed.length && logger.info({ removed }, 'local copies of pruned releases removed'),
      (err: unknown) => logger.warn({ err }, 'local copies of pruned releases could not be tidied'),
    );
  if (releaseFiles.fetches)
    manifestStore.onChange(() => {
      keepWhole(logger);
      tidy();
    });
  // The error rates watched, for the metrics' scrape (the monitor is made below).
  const watched = () => Promise.all(REMOTE_NAMES.map((remote) => rollbacks.report(remote)));
  const metrics = createMetrics(manifestNow, watched);
  // Public reads (JSON, sitemap, feeds, registry) kept per data version, for visitors and server rendering alike.
  const reads = createReplyCache({
    version: () => dataVersion(db),
    maxBytes: CACHE_BYTES,
    onLookup: (hit) => metrics.cacheLookups.inc({ cache: 'reads', result: hit ? 'hit' : 'miss' }),
    admit: (req, res) => admitted(limits['uncached-reads'], req, res),
  });
  // Which visitors each running canary serves (a bucket cookie), and what each release's visitors and renders report.
  const canaries = createCanaries(manifestNow);
  const signals = createSignals(db, {
    flushMs: config.signalsFlushMs,
    retentionMs: config.signalsRetentionDays * 86_400_000,
    maxKeys: config.signalsMaxKeys,
    logger,
  });
  // Tokens that tie a report to a page the server rendered, and the sources it counts (releases/signalTokens.ts).
  const signalTokens = createSignalTokens(previewSecret(config.signalsSecret, join(VAR_DIR, 'signals-secret')));
  const rollbacks = createRollbackMonitor({
    manifests: manifestStore,
    releasesDir: config.releasesDir,
    signals,
    rule: config.rollback,
    db,
    everyMs: config.rollback.enabled && pages ? config.rollback.checkMs : 0,
    remotes: REMOTE_NAMES,
    logger,
    rolledBack: (remote, _before, after) => queueReleasePurges(db, remote, after),
  });
  // A release change whose purges were never queued (its process stopped in between) is purged now; each change
  // queues its own after it (releases/releaseChange.ts).
  const releasePurges = (async () => {
    try {
      const { remotes } = manifestStore.read().manifest;
      for (const remote of REMOTE_NAMES) await queueReleasePurges(db, remote, remotes[remote]);
    } catch (err) {
      logger.warn({ err }, 'could not queue the purges of release changes');
    }
  })();
  // Sends the purges that changes queue to the shared caches in front (PURGE_URLS), one instance per purge.
  const purger = config.purgeUrls.length
    ? createPurger({ db, urls: config.purgeUrls, logger, pollMs: PURGE_POLL_MS })
    : null;

  // One set of limits, so page form posts (through the in-process API) and direct API posts share each budget.
  // On Postgres (several instances) the counts live in the database, so the limit holds across all of them.
  const store = rateLimitStore ?? (dialectOf(db) === 'postgres' ? databaseRateLimits(db) : undefined);
  const limits = createRateLimits({
    formsPerMinute: config.writeRateLimit,
    eventsPerMinute: config.eventsRateLimit,
    mcpPerMinute: config.mcpRateLimit,
    releaseUploadsPerMinute: config.releaseUploadsPerMinute,
    signalsPerMinute: config.signalsRateLimit,
    signInPerMinute: config.console.signInPerAddress,
    signInPerPersonPerMinute: config.console.signInPerPerson,
    uncachedReadsPerMinute: config.readRateLimit,
    store,
  });
  // Signed preview links and the cookies they set (releases/preview.ts).
  const secret = previewSecret(config.previewSecret, join(VAR_DIR, 'preview-secret'));
  const previews = createPreviews(secret, REMOTE_NAMES);
  // Signed links to unpublished posts (blog/preview.ts), with the same secret.
  const postPreviews = createPostPreviews(secret);
  // The JSON API as its own app: mounted below for visitors, and called in process by server rendering
  // (ssr/inProcessApi.ts), without the site's request log, compression and replay marks.
  const jsonApi = express();
  jsonApi.disable('x-powered-by');
  jsonApi.use(refuseNul);
  // A bad manifest or a remote served by a fallback (or not at all) is "degraded", still 200: the instance serves
  // every page it can, and a load balancer must not take it out of rotation for one remote's fault.
  jsonApi.get('/api/health', async (_req, res) => {
    await sql`SELECT 1`.execute(db);
    const releases = serving.health();
    res.json(
      releases.ok ? { status: 'ok' } : { status: 'degraded', manifest: releases.manifest, remotes: releases.remotes },
    );
  });
  jsonApi.use('/api/tools', toolsRouter(db, reads));
  jsonApi.use('/api/blog', blogRouter(db, reads, postPreviews));
  jsonApi.use(
    '/api/events',
    eventsRouter(db, {
      limit: limits.events,
      retention: { maxRows: config.eventsMaxRows, maxAgeDays: config.eventsMaxAgeDays },
    }),
  );
  jsonApi.use('/api', formsRouter({ db, config, logger, limits }));
  jsonApi.use('/api', notFoundApi);
  jsonApi.use(errorHandler);
  // A visitor's releases: a preview wins over a canary.
  const pinsOf = (req: IncomingMessage) =>
    previews.mayPreview(req) ? { ...canaries.pins(req), ...previews.of(req) } : canaries.pins(req);
  const renderer = pages
    ? await createPageRenderer(
        config,
        logger,
        jsonApi,
        serving,
        (req) => previews.of(req),
        (req) => canaries.pins(req),
        {
          rendered: (remote, release, seconds) => metrics.renderSeconds.observe({ remote, release }, seconds),
          renderFailed: (remote, release) => signals.count(remote, release, 'render-failure'),
          breaker(remote, release, open) {
            metrics.breakerOpen.set({ remote, release }, open ? 1 : 0);
            if (open) signals.count(remote, release, 'breaker-open');
          },
        },
        (releases) => signalTokens.issue(releases),
        (req) => postPreviews.of(req),
      )
    : null;
  let storedPages: CachedPages | null = null;

  app.use(requestLogger(logger));
  app.use(privateWithCookies);
  app.use(replayableAnswers);
  // HTML, JSON and the JavaScript bundles shrink to a third or less on the wire; cached replies come compressed.
  app.use(
    compression({ filter: (req, res) => !isPrecompressed(res as express.Response) && compression.filter(req, res) }),
  );
  app.use(
    securityHeaders({
      connectSrc: config.analyticsEndpoint ? [new URL(config.analyticsEndpoint, config.siteOrigin).origin] : [],
      inlineScripts: renderer?.inlineScripts,
    }),
  );
  // After the headers, so its refusal carries them too.
  app.use(refuseNul);
  // The release API (teams' CI, operators): bearer tokens, never cookies; not part of the in-process API.
  app.use(
    '/api/releases',
    noStore,
    releasesRouter({
      db,
      releasesDir: config.releasesDir,
      manifests: manifestStore,
      files: releaseFiles,
      previews,
      siteOrigin: config.siteOrigin,
      maxUploadBytes: config.releaseUploadBytes,
      uploadLimit: limits['release-uploads'],
      health: (remote) => rollbacks.report(remote),
    }),
  );
  // Visitors' error reports (the shell's beacons).
  app.use(
    signalsRouter({
      signals,
      tokens: signalTokens,
      files: releaseFiles,
      limit: limits.signals,
      onReport: (b) => metrics.visitorErrors.inc({ remote: b.remote, release: b.release, kind: b.kind }),
      onRefused: (b, reason) => metrics.refusedReports.inc({ remote: b.remote, release: b.release, reason }),
    }),
  );
  // Scrapes with the token (METRICS_TOKEN); without one configured, /metrics is only on METRICS_PORT (main.ts).
  if (config.metricsToken)
    app.get('/metrics', (req, res, next) => void serveMetrics(metrics, req, res, config.metricsToken).catch(next));
  // Which canary side a bucket is on, for a shared cache in front (releases/side.ts).
  app.get(SIDE_PATH, sideRoute(canaries));
  app.use(jsonApi);

  // A post's preview link: checks its signature and expiry, gives this browser the cookie, and opens the post's page.
  app.get(`${POST_PREVIEW_PATH}/:slug`, (req, res) => {
    const slug = (req.params as { slug: string }).slug;
    const grant = postPreviews.verify(slug, String(req.query.exp ?? ''), String(req.query.sig ?? ''));
    res.set({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' });
    if (!grant)
      return void res
        .status(403)
        .type('text/plain')
        .send('This preview link is not valid or has expired (a link lasts 24 hours). Ask for a new one.');
    // One cookie per post previewed; beyond the few a browser keeps, those expiring first go (blog/preview.ts).
    res
      .append('Set-Cookie', [postPreviews.cookie(grant, req.secure), ...postPreviews.dropped(req, slug, req.secure)])
      .redirect(303, `/blog/${slug}`);
  });
  // A preview link: checks its signature and expiry, gives this browser the cookie, and opens the remote's first page.
  app.get(`${PREVIEW_PATH}/:remote/:id`, async (req, res) => {
    const { remote, id } = req.params as { remote: string; id: string };
    const grant = previews.verify(remote, id, String(req.query.exp ?? ''), String(req.query.sig ?? ''));
    res.set('Cache-Control', 'no-store');
    if (!grant)
      return void res
        .status(403)
        .type('text/plain')
        .send('This preview link is not valid or has expired (a link lasts 24 hours). Ask for a new one.');
    await releaseFiles.materialise(remote, id).catch(() => false);
    const check = checkRelease(config.releasesDir, remote, id);
    if (!check.ok)
      return void res
        .status(404)
        .type('text/plain')
        .send(`Release ${id} of ${remote} cannot be previewed: ${check.problem}.`);
    const landing = ROUTE_TABLE.find((r) => r.remote === remote && !r.path.includes(':'))?.path ?? '/';
    res.append('Set-Cookie', previews.cookie(grant, req.secure)).redirect(303, landing);
  });
  // The bar's button: ends every preview of this browser and returns to the page it was on.
  app.post(STOP_PREVIEW_PATH, express.urlencoded({ extended: false, limit: '2kb' }), (req, res) => {
    const back = typeof req.body?.back === 'string' && /^\/(?![/\\])/.test(req.body.back) ? req.body.back : '/';
    res.set('Cache-Control', 'no-store');
    for (const cookie of previews.clearCookies(req)) res.append('Set-Cookie', cookie);
    res.redirect(303, back);
  });

  app.use(seoRouter(db, config.siteOrigin, reads));
  app.use(
    '/v0.1',
    registryCors,
    registryRouter(db, config.siteOrigin, reads, findServers),
    registryNotFound,
    registryClientError,
  );
  app.use(feedsRouter(db, config.siteOrigin, reads));
  // The site's own MCP server, for agents (docs/mcp.md): read-only, the site's data only.
  app.use(mcpRouter({ db, siteOrigin: config.siteOrigin, limit: limits.mcp, metrics, logger }));

  // Brand-logo tiles, post covers and social previews (generated files, cached a year by their ?v= address).
  const logos = loadLogoMap();
  const images = createImageService({ db, cacheDir: join(VAR_DIR, 'images'), logos });
  app.use(imagesRouter({ images, logos, logger, previews: postPreviews }));
  // The seed step's pictures, drawn in the background one at a time; a request for a missing one draws it at once.
  if (pages) void images.warm().catch((err) => logger.warn({ err }, 'image warm-up stopped'));

  app.get('/remotes.json', async (req, res) => {
    const out: Record<string, PublicRelease> = {};
    const pinned = pinsOf(req);
    // All remotes at once: each may wait up to the budget for its server entry to import.
    for (const served of await Promise.all(
      REMOTE_NAMES.map((remote) => serving.resolve(remote, config.renderBudgetMs, pinned[remote])),
    )) {
      if (served.release) out[served.remote] = served.public;
    }
    res.set('Cache-Control', 'no-store').json(out);
  });

  // A file not found there (yet: an instance fetches what its copy lacks) is not cached by anyone; one found sets its own.
  app.use(['/remotes', '/assets'], (_req, res, next) => (res.set('Cache-Control', 'no-store'), next()));
  // /remotes/<name>/<release-id>/<file>: release files never change, so they cache forever.
  const releaseStatic = new Map<string, RequestHandler>();
  const staticFiles = createStaticFileCache({
    maxBytes: STATIC_CACHE_BYTES,
    onLookup: (hit) => metrics.cacheLookups.inc({ cache: 'files', result: hit ? 'hit' : 'miss' }),
  });
  app.use('/remotes/:remote/:id', async (req, res, next) => {
    const { remote, id } = req.params as { remote: string; id: string };
    if (!(REMOTE_NAMES as readonly string[]).includes(remote) || !/^\w[\w.-]*$/.test(id))
      return void res.sendStatus(404);
    const dev = id === DEV_RELEASE_ID && config.devRemotes.includes(remote);
    const clientDir = dev ? devRelease(remote).clientDir : join(config.releasesDir, remote, id, 'client');
    const retry = RETRY_PATH.exec(req.path);
    let check = dev ? null : checkRelease(config.releasesDir, remote, id);
    // What this instance's copy lacks (an older release, a folder removed or damaged) is fetched before the answer.
    const file = `client/${retry ? retry[2] : req.path.slice(1)}`;
    if (releaseFiles.fetches && check && (!check.ok || !existsSync(join(clientDir, '..', file))))
      if (await releaseFiles.materialise(remote, id, file).catch(() => false))
        check = checkRelease(config.releasesDir, remote, id);
    if (!existsSync(clientDir)) return void res.sendStatus(404);
    // A damaged release (an entry changed since it was released) is never served, nor cached by anyone.
    if (check && !check.ok && check.kind === 'damaged')
      return void res.set('Cache-Control', 'no-store').sendStatus(404);
    // A retry address (see retryEntryUrl in shell/src/remotes/loadRemote.ts): the same files under fresh URLs.
    if (retry) {
      const [, token, file] = retry as unknown as [string, string, string];
      if (file === REMOTE_ENTRY_FILE)
        return void sendRetryEntry(res, join(clientDir, file), remoteBaseUrl(remote, id), token);
      req.url = `/${file}`;
    }
    const cacheControl = dev ? 'no-cache' : IMMUTABLE;
    if (await staticFiles.send(req, res, clientDir, req.path.slice(1), cacheControl)) return;
    let serve = releaseStatic.get(clientDir);
    if (!serve) {
      serve = express.static(clientDir, {
        index: false,
        fallthrough: false,
        setHeaders: (r) => r.set('Cache-Control', cacheControl),
      });
      releaseStatic.set(clientDir, serve);
    }
    serve(req, res, next);
  });

  // A tool's old address (its slug changed in the console) answers 301 with its current one.
  app.get('/tool/:slug', oldSlugRedirect(db));

  if (renderer) {
    const assetsDir = join(SHELL_DIST, 'client', 'assets');
    app.use(
      '/assets',
      (req, res, next) =>
        void Promise.resolve(staticFiles.send(req, res, assetsDir, req.path.slice(1), IMMUTABLE)).then(
          (sent) => sent || next(),
          next,
        ),
      express.static(assetsDir, { fallthrough: false, immutable: true, maxAge: '365d' }),
    );
    // Pages served from a package's dist/ (DEV_REMOTES) change without a new release id: rendered every time.
    const cached = config.devRemotes.length
      ? null
      : cachedPages(renderer, {
          cache: createReplyCache({
            version: () => dataVersion(db),
            maxBytes: CACHE_BYTES,
            onLookup: (hit) => metrics.cacheLookups.inc({ cache: 'pages', result: hit ? 'hit' : 'miss' }),
          }),
          // A render that no cache answered costs the visitor's budget (docs/operations.md, Rate limits).
          admit: (req, res) => admitted(limits['uncached-reads'], req, res),
          // The releases this visitor is served: each side of a canary has its own pages.
          releases: (req) => servedReleasesKey(serving, REMOTE_NAMES, canaries.pins(req)),
          // A page names every remote's release (the browser may open any route), so each is one of its keys.
          edge(req) {
            const pins = canaries.pins(req);
            const keys = [DATA_KEY];
            for (const remote of REMOTE_NAMES) {
              const id = serving.current(remote, pins[remote]).release?.id;
              if (id) keys.push(releaseKey(remote, id));
            }
            return { keys, side: sideOf(pins) };
          },
        });
    storedPages = cached;
    const uncached: RequestHandler = (req, res, next) => void renderer.render(req, res).catch(next);
    // A previewing browser's pages are its own: rendered each time, never stored (nor replayed to it, below).
    const render: RequestHandler = (req, res, next) => {
      // A first page while a canary runs: this visitor's bucket is chosen now, and the page rendered for it (with
      // its cookie, so never stored).
      if (canaries.needsBucket(req)) {
        res.append('Set-Cookie', canaries.assign(req, req.secure));
        return uncached(req, res, next);
      }
      (cached && !previews.mayPreview(req) ? cached : uncached)(req, res, next);
    };
    app.get(/.*/, render);
    // Forms post to their own page (they work without JavaScript): the route's action reads the body, whatever its
    // type, and answers the page with a reason when it is not a readable form (mfe-forms readPost).
    app.post(/.*/, express.raw({ type: () => true, limit: PAGE_FORM_LIMIT }), render);
    // Any other method on a page: 405 naming the ones a page takes (not Express's own 404, which echoes the request).
    app.use(allowOnly(PAGE_METHODS));
  }

  app.use(errorHandler);

  // The front lane: a public read or a stored page that Express already sent at this data version (a page: with
  // these releases) goes out again, headers and all, without running Express (its router and middleware were most
  // of such a request's time: docs/architecture.md, Caching). Anything else, and anything not sent yet, goes to Express.
  const replayers = [reads.replay, ...(storedPages ? [storedPages.replay] : [])];
  // The error rates' denominator: a few views per visitor (releases/views.ts).
  const countView = viewCounter({ signals, tokens: signalTokens, addressOf: clientAddress(app) });
  // `url` is the address as it arrived: Express's routers rewrite req.url below their mount point (/api/tools?x
  // reads as /?x there), which counted API answers as views of the home page.
  const countAnswer = (req: IncomingMessage, res: ServerResponse, url: string) => {
    const route = routeLabel(url);
    metrics.requests.inc({ route, status: String(res.statusCode) });
    // A page view of a remote's page, counted for the release this visitor was served (the error rates' denominator):
    // one that failed counts too, or a release failing on every page would never have the views to be judged.
    // (A replayed page's headers went out with writeHead and cannot be read back: a remote's route is a page.)
    const remote = REMOTE_OF_ROUTE.get(route);
    if (req.method !== 'GET' || !isPageShown(res.statusCode) || !renderer || !remote || isCrawler(req)) return;
    const release = serving.current(remote, pinsOf(req)[remote]).release?.id;
    if (!release) return;
    metrics.pageViews.inc({ remote, release });
    countView(req, remote, release);
  };
  const handler: RequestListener = (req, res) => {
    const startedAt = Date.now();
    const url = req.url ?? '/';
    // A front-lane answer is sent when replay returns, so it is counted there; Express's, once it has gone out.
    const answered = () => {
      logAnswered(logger, req, res, startedAt);
      countAnswer(req, res, url);
    };
    const toExpress = () => {
      res.once('finish', () => countAnswer(req, res, url));
      void app(req, res);
    };
    // Release files and shell assets are Express's static files; the lane has nothing for them.
    // A previewing browser gets no stored page (it would show the active release); nor does a visitor who gets
    // a canary bucket with this page.
    const lanes = STATIC_FILES.test(url)
      ? []
      : previews.mayPreview(req) || canaries.needsBucket(req)
        ? [reads.replay]
        : replayers;
    const next = (i: number): void => {
      if (i === lanes.length) return toExpress();
      const replayed = lanes[i]!(req, res);
      if (replayed === true) return answered();
      if (replayed === false) return next(i + 1);
      replayed.then((sent) => (sent ? answered() : next(i + 1)), toExpress);
    };
    next(0);
  };
  // Instances on one Postgres report themselves for the console's health page (a timer, not request work).
  const instance =
    dialectOf(db) === 'postgres' && pages
      ? reportInstance(db, () => (serving.health().ok ? 'ok' : 'degraded'), logger)
      : null;
  // The scheduled jobs (jobs/): main.ts starts their schedule; the console reads them and asks for runs.
  const jobs = createJobRunner({
    db,
    jobs: siteJobs({ config, logger }),
    logger,
    ...(dialectOf(db) === 'postgres'
      ? {
          queue: {
            url: config.database,
            pollSeconds: config.jobs.pollSeconds,
            heartbeatSeconds: config.jobs.heartbeatSeconds,
            superviseSeconds: config.jobs.superviseSeconds,
            schema: config.jobs.queueSchema,
          },
        }
      : {}),
  });
  const stop = async () => {
    await jobs.stop();
    instance?.stop();
    purger?.stop();
    rollbacks.stop();
    if (keepTimer) clearInterval(keepTimer);
    serving.close();
    await Promise.all([signals.close(), releasePurges]);
  };
  // The console shares the database, the release state, the signals and the rate-limit counts, nothing else.
  const consoleApp = createConsoleApp({
    config,
    db,
    logger,
    manifests: manifestStore,
    files: releaseFiles,
    serving,
    signals,
    rollbacks,
    limits,
    distDir: consoleDist,
    instanceId: instance?.id,
    jobs,
    posts: {
      previewLink: (slug) => new URL(postPreviews.link(slug), config.siteOrigin).href,
      siteOrigin: config.siteOrigin,
      cover: (slug, copy) => images.unpublishedCover(slug, copy),
      ...(renderer ? { render: (pathname, answers) => renderer.renderWith(pathname, answers) } : {}),
    },
  });
  return Object.assign(app, { handler, metrics, signals, signalTokens, rollbacks, jobs, stop, console: consoleApp });
}
