/**
 * The release API: teams' CI and operators store, activate and roll back a remote's releases over HTTP with a
 * release token (Authorization: Bearer). The same store functions as `pnpm release` and `pnpm rollback` (store.ts),
 * so on Postgres every instance sees a change as it does a local one. Answers use the API's shape
 * (contracts/answers.ts).
 */
import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { DB } from '../db/connection';
import { failure, success } from '@aitools/contracts/answers';
import { RATE_LIMIT_KEY } from '../middleware/rateLimit';
import { jsonBody } from '../middleware/body';
import { REMOTE_NAMES } from '../paths';
import { RELEASE_ID, type ManifestStore } from './manifest';
import type { Previews } from './preview';
import { listReleases, storeUpload } from './store';
import { ReleaseError } from './refusal';
import { abortCanary, activateRelease, auditRelease, promoteCanary, rollBackRelease, type Caller } from './actions';
import { tokenActor, writeAudit } from '../content/audit';
import { authenticateToken, tokenCovers, type ReleaseToken } from './tokens';
import type { ReleaseStore } from './releaseStore';
import { DEFAULT_UPLOAD_LIMITS, UploadError, type UploadLimits } from './upload';

export interface ReleasesRouterOptions {
  db: DB;
  releasesDir: string;
  manifests: ManifestStore;
  /** Where release files are stored (the folders, or rows on Postgres). */
  files: ReleaseStore;
  previews: Previews;
  /** Absolute links in answers (the preview link). */
  siteOrigin: string;
  /** Largest body read, in bytes (gzip). */
  maxUploadBytes: number;
  limits?: UploadLimits;
  /** Counts uploads per token (the site's rate limiter, keyed by res.locals[RATE_LIMIT_KEY]). */
  uploadLimit: RequestHandler;
  /** Error rates of the releases being watched (autoRollback.ts), for the listing. */
  health?: (remote: string) => Promise<unknown>;
}

const GZIP_TYPES = ['application/gzip', 'application/x-gzip', 'application/x-tar+gzip', 'application/octet-stream'];
const activateBody = z
  .object({
    id: z.string().regex(RELEASE_ID, 'not a release id'),
    canary: z.number().int('a whole percent').min(1, 'from 1 to 99 percent').max(99, 'from 1 to 99 percent').optional(),
    force: z.boolean().optional(),
  })
  .strict();
const rollbackBody = z
  .object({ to: z.string().regex(RELEASE_ID, 'not a release id').optional(), force: z.boolean().optional() })
  .strict();

const tokenOf = (res: Response) => res.locals.releaseToken as ReleaseToken;

/** Uploads stored at once across the remotes (one per remote): the memory they hold is bounded, and one team's uploads
 *  never take every slot. */
export const UPLOADS_AT_ONCE = 2;

export function releasesRouter(opts: ReleasesRouterOptions): Router {
  const router = Router();
  const at = { releasesDir: opts.releasesDir, manifests: opts.manifests, files: opts.files };
  // Who acts, for the history (the token's label) and the audit trail (content/audit.ts).
  const callerOf = (req: Request, res: Response): Caller => ({
    db: opts.db,
    actor: tokenActor(tokenOf(res).label),
    by: tokenOf(res).label,
    address: req.ip,
  });

  // Who calls, before any body is read: no token or an unknown or revoked one 401, an unknown remote 404, a token
  // for other remotes 403. Looked up in the database on every request (tokens.ts), so a revocation holds at once.
  router.use('/:remote', (req, res, next) => {
    const header = req.get('authorization') ?? '';
    const presented = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const refuse = (status: number, error: string) => {
      if (status === 401) res.set('WWW-Authenticate', 'Bearer realm="releases"');
      res.status(status).json(failure(error));
    };
    if (!presented)
      return refuse(
        401,
        'A release token is required: send it as Authorization: Bearer <token> (RELEASE_TOKEN in CI).',
      );
    authenticateToken(opts.db, presented)
      .then((token) => {
        if (!token)
          return refuse(
            401,
            'This release token is unknown or revoked. Ask an operator for a new one (pnpm run token create).',
          );
        const { remote } = req.params as { remote: string };
        if (!(REMOTE_NAMES as readonly string[]).includes(remote))
          return refuse(404, `Unknown remote "${remote}". Known remotes: ${REMOTE_NAMES.join(', ')}.`);
        if (!tokenCovers(token, remote)) {
          const error = `The token "${token.label}" may release ${token.remotes.join(', ')}, not ${remote}.`;
          return void writeAudit(opts.db, {
            actor: tokenActor(token.label),
            action: `release.${req.method === 'GET' ? 'read' : 'change'}`,
            target: remote,
            summary: error,
            address: req.ip,
            outcome: 'refused',
          }).then(() => refuse(403, error), next);
        }
        res.locals.releaseToken = token;
        res.locals[RATE_LIMIT_KEY] = token.label;
        next();
      })
      .catch(next);
  });

  const readArchive: RequestHandler = (req, res, next) => {
    if (!req.is(GZIP_TYPES))
      return void res
        .status(415)
        .json(failure('Send the release folder as a gzip tar with Content-Type: application/gzip.'));
    express.raw({ type: () => true, limit: opts.maxUploadBytes })(req, res, (err?: unknown) =>
      next(
        (err as { type?: string } | undefined)?.type === 'entity.too.large'
          ? new UploadError(
              413,
              `The archive is larger than ${opts.maxUploadBytes} bytes (RELEASE_UPLOAD_BYTES). A release folder holds its build output only.`,
            )
          : err,
      ),
    );
  };

  // Uploads being read and checked, by remote: each holds its archive and its inflated files in memory for a while.
  const uploading = new Set<string>();
  const oneUploadPerRemote: RequestHandler = (req, res, next) => {
    const { remote } = req.params as { remote: string };
    if (uploading.has(remote) || uploading.size >= UPLOADS_AT_ONCE)
      return void res
        .status(429)
        .set('Retry-After', '30')
        .json(
          failure(
            uploading.has(remote)
              ? `A release of ${remote} is being uploaded: send the next one when it has been stored.`
              : 'Other releases are being uploaded: try again in a minute.',
          ),
        );
    uploading.add(remote);
    res.once('close', () => uploading.delete(remote));
    next();
  };

  router.post('/:remote', opts.uploadLimit, oneUploadPerRemote, readArchive, async (req, res) => {
    const { remote } = req.params as { remote: string };
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const meta = await storeUpload(remote, body, {
      ...at,
      by: tokenOf(res).label,
      limits: opts.limits ?? DEFAULT_UPLOAD_LIMITS,
    });
    await auditRelease(callerOf(req, res), 'upload', remote, `stored ${meta.id}`);
    const previewUrl = new URL(opts.previews.link(remote, meta.id), opts.siteOrigin).href;
    res.status(201).json(success({ id: meta.id, previewUrl }));
  });

  router.post('/:remote/activate', jsonBody('4kb'), async (req, res) => {
    const { remote } = req.params as { remote: string };
    const body = activateBody.safeParse(req.body ?? {});
    if (!body.success) {
      const issue = body.error.issues[0];
      const field = issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : String(issue?.path[0] ?? 'id');
      return void res
        .status(400)
        .json(
          failure(
            'Send { "id": "<release id>" }, with "canary": <1-99> for a canary and "force": true to bring back a release rolled back automatically.',
            { [field]: issue?.message ?? 'required' },
          ),
        );
    }
    const r = await activateRelease(
      at,
      remote,
      body.data.id,
      { canary: body.data.canary, force: body.data.force },
      callerOf(req, res),
    );
    if (r.canary !== undefined)
      return void res.json(success({ remote, active: r.from, canary: { id: r.to, percent: r.canary } }));
    res.json(success({ remote, active: r.to, from: r.from }));
  });

  router.post('/:remote/promote', async (req, res) => {
    const { remote } = req.params as { remote: string };
    const r = await promoteCanary(at, remote, callerOf(req, res));
    res.json(success({ remote, active: r.to, from: r.from }));
  });

  router.post('/:remote/abort', async (req, res) => {
    const { remote } = req.params as { remote: string };
    const r = await abortCanary(at, remote, callerOf(req, res));
    res.json(success({ remote, active: r.active, aborted: r.aborted }));
  });

  router.post('/:remote/rollback', jsonBody('4kb'), async (req, res) => {
    const { remote } = req.params as { remote: string };
    const body = rollbackBody.safeParse(req.body ?? {});
    if (!body.success)
      return void res
        .status(400)
        .json(failure('Send {} or { "to": "<release id>" }.', { to: body.error.issues[0]?.message ?? 'invalid' }));
    const r = await rollBackRelease(at, remote, { to: body.data.to, force: body.data.force }, callerOf(req, res));
    res.json(success({ remote, active: r.to, from: r.from }));
  });

  router.get('/:remote', async (req, res) => {
    const { remote } = req.params as { remote: string };
    const state = opts.manifests.read().manifest.remotes[remote];
    const releases = (await listReleases(at, remote)).map(
      ({ id, version, builtAt, sourceHash, source, releasedBy, active }) => ({
        id,
        version,
        builtAt,
        sourceHash,
        gitCommit: source?.gitCommit ?? null,
        releasedBy: releasedBy ?? null,
        active,
      }),
    );
    const health = opts.health ? await opts.health(remote) : null;
    res.json(
      success({
        data: {
          remote,
          active: state?.active ?? releases.find((r) => r.active)?.id ?? null,
          canary: state?.canary ?? null,
          releases,
          history: state?.history ?? [],
          ...(health ? { health } : {}),
        },
      }),
    );
  });

  // Refusals say what was wrong and what to do; anything else is the site's error handler's.
  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (err instanceof ReleaseError || err instanceof UploadError)
      return void res.status(err.status).json(failure(err.message));
    next(err);
  });
  return router;
}
