import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import { success } from '@aitools/contracts/answers';
import type { DB } from '../db/connection';
import { HttpError } from '../middleware/errors';
import type { Revision } from '@aitools/contracts/editing';
import { diffRevisions, getRevision, latestVersion, listRevisions, type ContentKind } from '../content/revisions';
import { readBody } from './body';

const version = z.coerce.number().int().min(1);
const restoreBody = z.object({ base: z.number().int().min(0) }).strict();

export interface VersionRoutes {
  db: DB;
  kind: ContentKind;
  /** What the editors call it, for the 404s. */
  noun: string;
  /** Guards of reading the versions and of a restore (the person's role). */
  read: RequestHandler;
  restore: RequestHandler;
  /** The versions' key of the thing at `:slug`; throws 404 for an unknown one. */
  keyOf(req: Request): Promise<string>;
  /** Saves the old version's fields as a new version over `base` (409 when stale), and answers. */
  restoreVersion(req: Request, res: Response, key: string, old: Revision, base: number): Promise<void>;
}

/**
 * A post's or a tool's saved versions, in one shape (content/revisions.ts):
 * - `GET <path>/:slug/versions`: the list, newest first;
 * - `GET <path>/:slug/versions/:v`: one version's fields;
 * - `GET <path>/:slug/versions/:v/diff?to=<version>`: the changes from it to another (by default the newest);
 * - `POST <path>/:slug/versions/:v/restore` with `{ base }`: its fields saved as a new version.
 */
export function versionRoutes(router: Router, path: '/posts' | '/tools', routes: VersionRoutes): void {
  const { kind, noun } = routes;
  const missing = () => new HttpError(404, `No such version of this ${noun}.`);
  const at = `${path}/:slug/versions`;

  router.get(at, routes.read, async (req, res) => {
    res.json(success({ versions: await listRevisions(routes.db, kind, await routes.keyOf(req)) }));
  });

  router.get(`${at}/:v`, routes.read, async (req, res) => {
    const revision = await getRevision(routes.db, kind, await routes.keyOf(req), readBody(version, req.params.v));
    if (!revision) throw missing();
    res.json(success({ revision }));
  });

  router.get(`${at}/:v/diff`, routes.read, async (req, res) => {
    const key = await routes.keyOf(req);
    const from = readBody(version, req.params.v);
    const to = req.query.to === undefined ? await latestVersion(routes.db, kind, key) : readBody(version, req.query.to);
    const lines = await diffRevisions(routes.db, kind, key, from, to);
    if (!lines) throw missing();
    res.json(success({ from, to, lines }));
  });

  router.post(`${at}/:v/restore`, routes.restore, async (req, res) => {
    const { base } = readBody(restoreBody, req.body);
    const key = await routes.keyOf(req);
    const old = await getRevision(routes.db, kind, key, readBody(version, req.params.v));
    if (!old) throw missing();
    await routes.restoreVersion(req, res, key, old, base);
  });
}
