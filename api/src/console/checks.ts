/** The moderators' part of the description checks (docs/mcp.md, "Description checks"): the queue of changes within
 *  one version and of findings, a finding dismissed with a reason, a change reviewed with one; each in the audit trail. */
import { Router } from 'express';
import { z } from 'zod';
import { reasonField } from '@aitools/contracts/fields';
import { success } from '@aitools/contracts/answers';
import { inTransaction, type DB } from '../db/connection';
import { CheckError, checksQueue, dismissFinding, reviewRugPull } from '../checks/facts';
import { personActor, writeAudit } from '../content/audit';
import { readBody } from './body';
import { allow, auditEntry, personOf } from './guard';
import { ConsoleError } from './people';

const dismissBody = z
  .object({ slug: z.string().min(1).max(200), findingId: z.string().min(1).max(64), reason: reasonField() })
  .strict();
const reviewBody = z.object({ id: z.number().int().positive(), reason: reasonField() }).strict();

/** A refusal of the checks (no such finding, already reviewed) keeps its words and status. */
async function refusalsKept<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof CheckError) throw new ConsoleError(err.status, err.message);
    throw err;
  }
}

export function checksRouter(db: DB): Router {
  const router = Router();
  const read = allow(db, 'read', 'checks.read');

  router.get('/checks', read, async (_req, res) => {
    res.json(success(await checksQueue(db)));
  });

  router.post('/checks/dismiss', allow(db, 'moderate', 'finding.dismiss'), async (req, res) => {
    const body = readBody(dismissBody, req.body);
    const by = personActor(personOf(res));
    const finding = await refusalsKept(() =>
      inTransaction(db, async (trx) => {
        const f = await dismissFinding(trx, body.slug, body.findingId, body.reason, by);
        const summary = `${f.rule} in ${f.where}: "${f.text}" dismissed; reason: ${body.reason}`;
        await writeAudit(trx, auditEntry(req, res, 'finding.dismiss', `server ${body.slug}`, summary));
        return f;
      }),
    );
    res.json(success({ dismissed: finding.id }));
  });

  router.post('/checks/review', allow(db, 'moderate', 'rugpull.review'), async (req, res) => {
    const body = readBody(reviewBody, req.body);
    const by = personActor(personOf(res));
    const flag = await refusalsKept(() =>
      inTransaction(db, async (trx) => {
        const f = await reviewRugPull(trx, body.id, body.reason, by);
        const summary = `change within version ${f.version} reviewed; reason: ${body.reason}`;
        await writeAudit(trx, auditEntry(req, res, 'rugpull.review', `server ${f.tool_slug}`, summary));
        return f;
      }),
    );
    res.json(success({ reviewed: flag.id }));
  });

  return router;
}
