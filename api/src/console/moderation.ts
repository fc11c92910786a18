/** The moderators' pages: the submissions queue, the contact inbox, the waitlist and their CSV exports. */
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { approvalChoicesSchema } from '@aitools/contracts/toolEdit';
import { reasonField } from '@aitools/contracts/fields';
import { success } from '@aitools/contracts/answers';
import { inTransaction, type DB } from '../db/connection';
import type { SubmissionStatus } from '../forms/repository';
import {
  approveSubmission,
  contactsCsv,
  listContactMessages,
  listEarlyAccess,
  listSubmissions,
  rejectSubmission,
  SUBMISSION_STATUSES,
  subscribersCsv,
} from '../moderation/service';
import { writeAudit } from '../content/audit';
import { REJECT_FORM } from '@aitools/contracts/formFields';
import { readBody } from './body';
import { allow, auditEntry } from './guard';
import { ConsoleError } from './people';

const ids = z.array(z.number().int().positive()).min(1).max(100);
const approveBody = approvalChoicesSchema.extend({ ids });
const rejectBody = z.object({ ids, reason: reasonField() }).strict();

export function moderationRouter(db: DB): Router {
  const router = Router();
  const read = allow(db, 'read', 'moderation.read');
  const moderate = allow(db, 'moderate', 'submission.review');

  /** These lists show visitors' email addresses: each reading is in the audit trail, as each CSV export is. */
  const readAudited = (req: Request, res: Response, name: string, shown: number, filter?: string) =>
    writeAudit(
      db,
      auditEntry(
        req,
        res,
        `${name}.read`,
        name,
        `${shown} shown with their email addresses${filter ? ` (${filter})` : ''}`,
      ),
    );

  router.get('/submissions', read, async (req, res) => {
    const status = String(req.query.status ?? 'pending');
    if (status !== 'all' && !SUBMISSION_STATUSES.includes(status as SubmissionStatus))
      throw new ConsoleError(400, `status is one of ${SUBMISSION_STATUSES.join(', ')} or all.`);
    const rows = await listSubmissions(db, status === 'all' ? undefined : (status as SubmissionStatus));
    await readAudited(req, res, 'submissions', rows.length, `status ${status}`);
    res.json(success({ submissions: rows }));
  });

  // Several at once, all or none, each with its audit row: one transaction (each approval's own joins it:
  // db/connection.ts inTransaction).
  router.post('/submissions/approve', moderate, async (req, res) => {
    const body = readBody(approveBody, req.body);
    const tools = await inTransaction(db, async (trx) => {
      const slugs: string[] = [];
      for (const id of new Set(body.ids)) {
        const { slug, tool } = await approveSubmission(trx, id, { category: body.category, pricing: body.pricing });
        const summary = `pending -> approved as /tool/${slug} (${tool.category ?? ''}, ${tool.pricing ?? ''})`;
        await writeAudit(trx, auditEntry(req, res, 'submission.approve', `submission ${id}`, summary));
        slugs.push(slug);
      }
      return slugs;
    });
    res.json(success({ approved: tools.length, tools }));
  });

  router.post('/submissions/reject', moderate, async (req, res) => {
    const body = readBody(rejectBody, req.body, REJECT_FORM);
    const unique = [...new Set(body.ids)];
    await inTransaction(db, async (trx) => {
      for (const id of unique) {
        await rejectSubmission(trx, id);
        const summary = `pending -> rejected; reason: ${body.reason}`;
        await writeAudit(trx, auditEntry(req, res, 'submission.reject', `submission ${id}`, summary));
      }
    });
    res.json(success({ rejected: unique.length }));
  });

  router.get('/contacts', read, async (req, res) => {
    const contacts = await listContactMessages(db);
    await readAudited(req, res, 'contacts', contacts.length);
    res.json(success({ contacts }));
  });
  router.get('/waitlist', read, async (req, res) => {
    const waitlist = await listEarlyAccess(db);
    await readAudited(req, res, 'waitlist', waitlist.length);
    res.json(success({ waitlist }));
  });

  // Exports hold visitors' addresses: moderators only, each one in the audit trail; the formula guard is the CLI's.
  for (const [path, make, name] of [
    ['/contacts.csv', contactsCsv, 'contacts'],
    ['/waitlist.csv', subscribersCsv, 'waitlist'],
  ] as const)
    router.get(path, allow(db, 'moderate', `${name}.export`), async (req, res) => {
      const csv = await make(db);
      await writeAudit(db, auditEntry(req, res, `${name}.export`, name, 'CSV exported'));
      res.type('text/csv; charset=utf-8').attachment(`${name}.csv`).send(csv);
    });

  return router;
}
