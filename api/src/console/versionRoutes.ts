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

export interface VersionRoutes<T> {
  db: DB;
  kind: ContentKind;
  /** What the editors call it, for the 404s. */
  noun: string;
  /** Guards of reading the versions and of a restore (the person's role). */
  read: RequestHandler;
  restore: RequestHandler;
  /** The thing at `:slug`; throws 404 for an unknown one. */
  find(req: Request): Promise<T>;
  /** Its versions' key. */
  keyOf(found: T): string;
  /** Saves the old version's fields as a new version of `found` over `base` (409 when stale), and answers. */
  restoreVersion(req: Request, res: Response, found: T, old: Revision, base: number): Promise<void>;
}

/**
 * A post's or a tool's saved versions, in one shape (content/revisions.ts):
 * - `GET <path>/:slug/versions`: the list, newest first;
 * - `GET <path>/:slug/versions/:v`: one version's fields;
 * - `GET <path>/:slug/versions/:v/diff?to=<version>`: the changes from it to another (by default the newest), with
 *   `whole: true` when they were too many to compare line by line (content/revisions.ts diffLines);
 * - `POST <path>/:slug/versions/:v/restore` with `{ base }`: its fields saved as a new version.
 */
export function versionRoutes<T>(router: Router, path: '/posts' | '/tools', routes: VersionRoutes<T>): void {
  const { kind, noun } = routes;
  const missing = () => new HttpError(404, `No such version of this ${noun}.`);
  const at = `${path}/:slug/versions`;
  const keyAt = async (req: Request) => routes.keyOf(await routes.find(req));

  router.get(at, routes.read, async (req, res) => {
    res.json(success({ versions: await listRevisions(routes.db, kind, await keyAt(req)) }));
  });

  router.get(`${at}/:v`, routes.read, async (req, res) => {
    const revision = await getRevision(routes.db, kind, await keyAt(req), readBody(version, req.params.v));
    if (!revision) throw missing();
    res.json(success({ revision }));
  });

  router.get(`${at}/:v/diff`, routes.read, async (req, res) => {
    const key = await keyAt(req);
    const from = readBody(version, req.params.v);
    const to = req.query.to === undefined ? await latestVersion(routes.db, kind, key) : readBody(version, req.query.to);
    const diff = await diffRevisions(routes.db, kind, key, from, to);
    if (!diff) throw missing();
    res.json(success({ from, to, ...diff }));
  });

  router.post(`${at}/:v/restore`, routes.restore, async (req, res) => {
    const { base } = readBody(restoreBody, req.body);
    const found = await routes.find(req);
    const old = await getRevision(routes.db, kind, routes.keyOf(found), readBody(version, req.params.v));
    if (!old) throw missing();
    await routes.restoreVersion(req, res, found, old, base);
  });
}
