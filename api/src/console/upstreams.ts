/** The upstream registries this site follows (admins): list them with their last sync, add, edit, remove, and
 *  "Sync now", which runs the job's own service (moderation/upstreamSync.ts). Every change is audited. */
import { Router, type Request, type Response } from 'express';
import { success } from '@aitools/contracts/answers';
import { UPSTREAM_FORM } from '@aitools/contracts/formFields';
import type { RegistrySyncConfig } from '../config';
import type { DB } from '../db/connection';
import { writeAudit } from '../content/audit';
import { countsText } from '../registry/sync';
import {
  addUpstream,
  describeUpstream,
  findUpstream,
  listUpstreams,
  removeUpstream,
  updateUpstream,
  upstreamInputSchema,
} from '../registry/upstreams';
import { syncFollowed } from '../moderation/upstreamSync';
import { readBody } from './body';
import { allow, auditEntry, auditedChange } from './guard';

export function upstreamsRouter(db: DB, settings: RegistrySyncConfig): Router {
  const router = Router();
  const admin = (action: string) => allow(db, 'admin', action);
  const idOf = (req: Request) => Number((req.params as { id: string }).id);
  const input = (req: Request) => readBody(upstreamInputSchema, req.body, UPSTREAM_FORM);

  router.get('/upstreams', admin('upstreams.read'), async (_req, res) => {
    res.json(success({ upstreams: await listUpstreams(db) }));
  });

  router.post('/upstreams', admin('upstream.add'), async (req, res) => {
    const body = input(req);
    const upstream = await auditedChange(db, req, res, 'upstream.add', async (trx) => {
      const added = await addUpstream(trx, body);
      return { target: added.url, summary: describeUpstream(added), answer: added };
    });
    res.status(201).json(success({ upstream }));
  });

  router.post('/upstreams/:id', admin('upstream.edit'), async (req, res) => {
    const body = input(req);
    const upstream = await auditedChange(db, req, res, 'upstream.edit', async (trx) => {
      const before = await findUpstream(trx, idOf(req));
      const after = await updateUpstream(trx, before.id, body);
      return {
        target: after.url,
        summary: `${describeUpstream(before)} -> ${describeUpstream(after)}`,
        answer: after,
      };
    });
    res.json(success({ upstream }));
  });

  router.post('/upstreams/:id/remove', admin('upstream.remove'), async (req, res) => {
    const removed = await auditedChange(db, req, res, 'upstream.remove', async (trx) => {
      const gone = await removeUpstream(trx, idOf(req));
      return { target: gone.url, summary: 'no longer followed', answer: gone };
    });
    res.json(success({ removed: removed.url }));
  });

  // The sync writes its own rows as job:sync; this row says who asked for it, and what came of it.
  router.post('/upstreams/:id/sync', admin('upstream.sync'), async (req: Request, res: Response) => {
    const [result] = await syncFollowed(db, settings, String(idOf(req)));
    await writeAudit(
      db,
      auditEntry(
        req,
        res,
        'upstream.sync',
        result!.upstream,
        result!.reason ? `refused: ${result!.reason}` : countsText(result!.counts),
      ),
    );
    res.json(success({ result }));
  });

  return router;
}
