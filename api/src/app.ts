import express, { type Express, type RequestHandler } from 'express';
import compression from 'compression';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ServerConfig } from './config';
import type { DB } from './db/connection';
import { REMOTE_NAMES, SHELL_DIST, VAR_DIR } from './paths';
import { errorHandler, notFoundApi } from './middleware/errors';
import { cspNonce, securityHeaders } from './middleware/security';
import { requestLogger } from './middleware/logger';
import { writeRateLimit } from './middleware/rateLimit';
import { DEV_RELEASE_ID, publicManifest, resolveRelease } from './releases/manifest';
import { toolsRouter } from './tools/router';
import { blogRouter } from './blog/router';
import { formsRouter } from './forms/router';
import { eventsRouter } from './events/router';
import { seoRouter } from './seo/router';
import { createPageRenderer } from './ssr/renderPage';
import { loadLogoMap } from './images/logos';
import { createImageService } from './images/service';
import { imagesRouter } from './images/router';

export interface AppDeps {
  config: ServerConfig;
  db: DB;
  logger: Logger;
  /** Tests of the API alone skip page rendering (which needs the built shell). */
  pages?: boolean;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Composition only: security, API routes, remote release files, shell assets, then server-rendered pages. */
export async function createApp({ config, db, logger, pages = true }: AppDeps): Promise<Express> {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(requestLogger(logger));
  // HTML, JSON and the JavaScript bundles shrink to a third or less on the wire.
  app.use(compression());
  app.use(cspNonce);
  app.use(securityHeaders({ connectSrc: config.analyticsEndpoint ? [new URL(config.analyticsEndpoint, config.siteOrigin).origin] : [] }));

  app.get('/api/health', (_req, res) => {
    db.prepare('SELECT 1').get();
    res.json({ status: 'ok' });
  });
  app.use('/api/tools', toolsRouter(db));
  app.use('/api/blog', blogRouter(db));
  // Page views are frequent but still writes: a looser limit than the forms'.
  app.use('/api/events', writeRateLimit(config.writeRateLimit * 6), eventsRouter(db));
  app.use('/api', formsRouter({ db, config, logger }));
  app.use('/api', notFoundApi);

  app.use(seoRouter(db, config.siteOrigin));

  // Brand-logo tiles, post covers and social previews (generated files, cached a year by their ?v= address).
  const logos = loadLogoMap();
  const images = createImageService({ db, cacheDir: join(VAR_DIR, 'images'), logos });
  app.use(imagesRouter({ images, logos, logger }));
  // The seed step's pictures, drawn in the background one at a time; a request for a missing one draws it at once.
  if (pages) void images.warm().catch((err) => logger.warn({ err }, 'image warm-up stopped'));

  app.get('/remotes.json', (_req, res) => {
    res.set('Cache-Control', 'no-store').json(publicManifest(config.releasesDir, REMOTE_NAMES, config.devRemotes));
  });

  // /remotes/<name>/<release-id>/<file>: release files never change, so they cache forever.
  const releaseStatic = new Map<string, RequestHandler>();
  app.use('/remotes/:remote/:id', (req, res, next) => {
    const { remote, id } = req.params as { remote: string; id: string };
    if (!(REMOTE_NAMES as readonly string[]).includes(remote) || !/^\w[\w.-]*$/.test(id)) return void res.sendStatus(404);
    const release = resolveRelease(config.releasesDir, remote, config.devRemotes);
    const clientDir = release && release.id === id ? release.clientDir : join(config.releasesDir, remote, id, 'client');
    if (!existsSync(clientDir)) return void res.sendStatus(404);
    let serve = releaseStatic.get(clientDir);
    if (!serve) {
      const dev = id === DEV_RELEASE_ID;
      serve = express.static(clientDir, { index: false, fallthrough: false, setHeaders: (r) => r.set('Cache-Control', dev ? 'no-cache' : IMMUTABLE) });
      releaseStatic.set(clientDir, serve);
    }
    serve(req, res, next);
  });

  if (pages) {
    app.use('/assets', express.static(join(SHELL_DIST, 'client', 'assets'), { fallthrough: false, immutable: true, maxAge: '365d' }));
    const renderer = await createPageRenderer(config, logger);
    app.get(/.*/, (req, res, next) => {
      renderer.render(req, res).catch(next);
    });
  }

  app.use(errorHandler);
  return app;
}
