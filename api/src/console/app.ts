/**
 * The operator console's own application, served on its own listener (CONSOLE_PORT) and origin (CONSOLE_ORIGIN),
 * never on the public site's: a script on any public page cannot reach an operator's session. Its browser app is
 * console/dist (index.html for every page path); its JSON API is under /api. docs/operations.md, The console.
 */
import express, { type Express } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { failure } from '@aitools/contracts/answers';
import type { ServerConfig } from '../config';
import type { DB } from '../db/connection';
import { refuseNul } from '../middleware/errors';
import { jsonBody } from '../middleware/body';
import { POST_BODY_MAX_BYTES } from '@aitools/contracts/posts';
import { requestLogger } from '../middleware/logger';
import type { RateLimits } from '../middleware/rateLimit';
import { REPO_ROOT } from '../paths';
import type { RollbackMonitor } from '../releases/autoRollback';
import type { ManifestStore } from '../releases/manifest';
import type { ReleaseServing } from '../releases/serving';
import type { ReleaseStore } from '../releases/releaseStore';
import type { Signals } from '../releases/signals';
import type { JobRunner } from '../jobs/runner';
import { adminRouter } from './admin';
import { authRouter } from './auth';
import { dashboardRouter } from './dashboard';
import { consoleErrors, consoleHeaders, refusalAudit, requireSession, sameOrigin } from './guard';
import { moderationRouter } from './moderation';
import { checksRouter } from './checks';
import { relyingParty } from './passkeys';
import { releasesRouter } from './releases';
import { toolsEditorRouter } from './tools';
import { postsRouter, type PostsDeps } from './posts';
import { jobsRouter } from './jobs';
import { upstreamsRouter } from './upstreams';

export const CONSOLE_DIST = join(REPO_ROOT, 'console', 'dist');

export interface ConsoleDeps {
  config: ServerConfig;
  db: DB;
  logger: Logger;
  manifests: ManifestStore;
  files: ReleaseStore;
  serving: ReleaseServing;
  signals: Signals;
  rollbacks: RollbackMonitor;
  limits: RateLimits;
  /** The built browser app (tests give their own). */
  distDir?: string;
  /** This instance's row in the instances table (Postgres). */
  instanceId?: string;
  /** The scheduled jobs (jobs/runner.ts): the Registry screen shows them and asks for runs. */
  jobs?: JobRunner;
  /** Preview links and the live preview of posts (console/posts.ts). */
  posts?: PostsDeps;
}

export function createConsoleApp(deps: ConsoleDeps): Express {
  const { config, db, logger } = deps;
  const { origin } = config.console;
  const times = { idleMs: config.console.idleMs, absoluteMs: config.console.absoluteMs };
  const releaseDeps = {
    db,
    releasesDir: config.releasesDir,
    manifests: deps.manifests,
    files: deps.files,
    signals: deps.signals,
    rollbacks: deps.rollbacks,
    rule: config.rollback,
  };
  const app = express();
  app.disable('x-powered-by');
  // The same addresses as the site's (TRUST_PROXY): the sign-in limit counts what the connection or proxy says.
  app.set('trust proxy', config.trustProxy);
  app.use(requestLogger(logger));
  app.use(consoleHeaders(config.siteOrigin));
  app.use(refuseNul);
  const refused = refusalAudit(db);
  app.use(sameOrigin(origin, refused));

  const api = express.Router();
  // Sign-in reads its small bodies first. Every other call is refused without a session before its body is read:
  // a caller who is nobody must not make the process parse half a megabyte (the site shares it).
  // A sign-in limit's 429 (an address's or a person's) goes to the audit trail once it is sent.
  api.use('/auth', (req, res, next) => {
    res.once('finish', () => {
      if (res.statusCode === 429)
        refused(req, 'auth.limit', 'refused: too many sign-in attempts').catch((err: unknown) =>
          logger.warn({ err }, 'a sign-in limit could not be audited'),
        );
    });
    next();
  });
  api.use('/auth', jsonBody('64kb'), authRouter({ db, rp: relyingParty(origin), times, limits: deps.limits }));
  api.use(requireSession(db, times));
  // A post's markdown may be long: its calls take a body of every field at its maximum (POST_BODY_MAX_BYTES), so a
  // field too long is refused naming it; every other call's body is small.
  api.use('/posts', jsonBody(`${POST_BODY_MAX_BYTES}b`));
  api.use(jsonBody('64kb'));
  api.use(dashboardRouter({ ...releaseDeps, serving: deps.serving, instanceId: deps.instanceId }));
  api.use(moderationRouter(db));
  api.use(checksRouter(db));
  api.use(toolsEditorRouter(db, { siteOrigin: config.siteOrigin }));
  api.use(releasesRouter(releaseDeps));
  api.use(adminRouter({ db, origin, times }));
  api.use(upstreamsRouter(db, config.registrySync));
  api.use(postsRouter(db, deps.posts));
  if (deps.jobs) api.use(jobsRouter(db, deps.jobs));
  api.use((_req, res) => void res.status(404).json(failure('Not found')));
  app.use('/api', api);

  const dist = deps.distDir ?? CONSOLE_DIST;
  const index = join(dist, 'index.html');
  app.use(
    '/assets',
    express.static(join(dist, 'assets'), {
      fallthrough: false,
      index: false,
      setHeaders: (res) => res.set('Cache-Control', 'public, max-age=31536000, immutable'),
    }),
  );
  // Every other GET is a page of the app (its router reads the path); nothing else is served.
  app.get(/.*/, (_req, res) => {
    if (!existsSync(index))
      return void res
        .status(503)
        .type('text/plain')
        .send('The console is not built: run `npm run build` (or pnpm --filter @aitools/console build).');
    res.sendFile(index, { cacheControl: false, lastModified: false });
  });
  app.use((_req, res) => void res.status(405).set('Allow', 'GET, HEAD').json(failure('Method not allowed')));

  app.use(
    consoleErrors((err, status) => {
      if (status >= 500) logger.error({ err }, 'console request failed');
    }),
  );
  return app;
}
