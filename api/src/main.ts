import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { loadConfig } from './config';
import { SHARED_RESOLVE_PARENT } from './paths';
import { createLogger } from './middleware/logger';
import { recordConsoleOrigin } from './console/consoleOrigin';
import { openDatabase } from './db/connection';
import { seed } from './seed';
import { startMeaning, syncSearchIndex } from './tools/searchIndex';
import { warmMeaning } from './tools/meaning/meaning';
import { listSelf } from './mcp/listing';
import { addConfiguredUpstreams } from './registry/upstreams';
import { openManifestStore } from './releases/manifestStore';
import { materialiseServed, openReleaseStore } from './releases/openReleaseStore';
import { configStore } from '@aitools/platform/config';
import { browserConfig } from './ssr/renderPage';
import { serveMetrics } from './metrics';
import { createSiteServer } from './http/server';
import { listenOn, startupFailure } from './http/listen';
import { collectWhenIdle } from './http/idleCollection';

// Before any server entry is imported: shared packages resolve to the shell's copy (one React on the server).
// From source (tsx) or from the build (dist/, see build.mjs): the hooks module sits at the same place in each.
register(`./ssr/sharedResolveHooks.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url, {
  data: { shellUrl: pathToFileURL(SHARED_RESOLVE_PARENT).href },
});

// Any start-up failure (a port in use, a bad setting, a database that cannot be opened) is one line naming what
// to change, and the process exits non-zero (docs/operations.md, Configuration).
try {
  await start();
} catch (err) {
  process.stderr.write(`${startupFailure(err)}\n`);
  process.exit(1);
}

async function start() {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, config.logFormat);
  const db = await openDatabase(config.database).catch((err: unknown) => {
    throw new Error(
      `the database could not be opened (DATABASE_URL, else DATABASE_PATH): ${err instanceof Error ? err.message : String(err)}`,
    );
  });
  const seeded = await seed(db);
  // The directory's own MCP server is listed at this instance's address (mcp/listing.ts).
  await listSelf(db, config.siteOrigin);
  // REGISTRY_UPSTREAMS: followed from now on, unless already (admins edit them in the console).
  await addConfiguredUpstreams(db, config.registrySync.upstreams, config.registrySync.pagesPerRun);
  logger.info(seeded, 'database ready');
  // The search's meaning guess (unless SEARCH_MEANING=off), the catalogue coded in the background from now
  // (tools/meaning/).
  if (config.searchMeaning) {
    startMeaning((err) => logger.warn({ err }, 'search meaning: a code could not be made; searches use their words'));
    await warmMeaning().catch((err: unknown) => logger.warn({ err }, 'search meaning: the model could not be loaded'));
    void syncSearchIndex(db).catch((err: unknown) => logger.warn({ err }, 'the search index could not be synced'));
  }
  Object.assign(configStore.current, browserConfig(config));

  // On Postgres the manifest is rows every instance follows; otherwise manifest.json beside the release files.
  const manifests = await openManifestStore({
    releasesDir: config.releasesDir,
    database: config.database,
    db,
    serve: true,
    logger,
  });

  // On Postgres the files are rows too, and RELEASES_DIR this instance's copy: what is served is fetched before listening.
  const files = await openReleaseStore({ releasesDir: config.releasesDir, database: config.database, db, logger });
  await materialiseServed(files, manifests.read().manifest, logger);

  const { createApp } = await import('./app');
  const app = await createApp({ config, db, logger, manifests, files });
  const server = await listenOn(createSiteServer(app.handler), config.port, 'PORT');
  logger.info(`AI Tools Directory serving at http://localhost:${config.port} on Node ${process.version}`);
  // The operator console on its own port (its own origin: docs/operations.md, The console).
  const consoleServer = config.console.port
    ? await listenOn(createSiteServer(app.console), config.console.port, 'CONSOLE_PORT')
    : null;
  if (consoleServer) {
    logger.info(`Operator console at ${config.console.origin} (port ${config.console.port})`);
    // For the links `pnpm console invite` prints from another shell (console/consoleOrigin.ts).
    try {
      recordConsoleOrigin(config);
    } catch (err) {
      logger.warn({ err }, 'the console origin could not be recorded for the operator commands');
    }
  }
  // Metrics on their own port (keep it private: no token there), for a scraper inside the network.
  const metricsServer = config.metricsPort
    ? await listenOn(
        createSiteServer((req, res) => {
          if ((req.url ?? '').split('?')[0] !== '/metrics')
            return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Only /metrics here.\n');
          serveMetrics(app.metrics, req, res).catch((err: unknown) => {
            logger.error({ err }, 'metrics could not be collected');
            if (!res.headersSent) res.writeHead(500).end();
          });
        }),
        config.metricsPort,
        'METRICS_PORT',
      )
    : null;
  if (metricsServer) logger.info(`metrics at http://localhost:${config.metricsPort}/metrics`);
  // The heap a load grew goes back once the site is quiet (http/idleCollection.ts).
  const stopIdleCollection = collectWhenIdle([server, consoleServer]);
  // The scheduled jobs (docs/operations.md, Jobs); JOBS=off leaves this instance out of the schedule.
  if (config.jobs.enabled) await app.jobs.start();

  function shutdown() {
    stopIdleCollection();
    metricsServer?.close();
    consoleServer?.close();
    server.close(() => {
      void app
        .stop()
        .then(() => Promise.all([manifests.close(), db.destroy()]))
        .finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 5000).unref();
  }
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
