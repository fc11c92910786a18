import express, { Router, type Request } from 'express';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { ServerConfig } from '../config';
import type { DB } from '../db/connection';
import { HttpError } from '../middleware/errors';
import { writeRateLimit } from '../middleware/rateLimit';
import { contactSchema, EARLY_ACCESS_SOURCE, EARLY_ACCESS_TYPE, earlyAccessSchema, submissionSchema, validateForm } from '../contracts/forms';
import { insertContactMessage, insertEarlyAccess, insertSubmission } from './repository';
import { forwardToEmailMarketing } from './emailMarketing';

/** Form bodies are small; anything larger is refused with 413 before it is read further. */
const BODY_LIMIT = '16kb';

/** Parses the body with the shared schema (unknown fields dropped) or answers 400 with the field errors. */
function validated<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  const result = validateForm(schema, req.body);
  if (!result.success) throw new HttpError(400, 'Please correct the highlighted fields.', result.fieldErrors);
  return result.data;
}

/** Submissions, contact messages and early-access signups. Every answer of success follows a committed write. */
export function formsRouter({ db, config, logger }: { db: DB; config: ServerConfig; logger: Logger }): Router {
  const router = Router();
  // One budget per client address shared by all form writes, checked before the body is parsed.
  const writes = [writeRateLimit(config.writeRateLimit), express.json({ limit: BODY_LIMIT })];

  router.post('/submissions', ...writes, (req, res) => {
    const id = insertSubmission(db, validated(submissionSchema, req));
    res.status(201).json({ success: true, id });
  });

  router.post('/contact/submit', ...writes, (req, res) => {
    insertContactMessage(db, validated(contactSchema, req));
    res.json({ success: true });
  });

  router.post('/early-access', ...writes, (req, res) => {
    const { email } = validated(earlyAccessSchema, req);
    const created = insertEarlyAccess(db, { email, timestamp: new Date().toISOString(), type: EARLY_ACCESS_TYPE, source: EARLY_ACCESS_SOURCE });
    res.json({ success: true });
    // After the answer: the visitor never waits for, or fails because of, the marketing service.
    if (created && config.emailMarketingUrl) void forwardToEmailMarketing(config.emailMarketingUrl, email, logger);
  });

  return router;
}
