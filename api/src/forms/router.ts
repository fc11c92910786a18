import { Router, type Request, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { ServerConfig } from '../config';
import type { DB } from '../db/connection';
import { allowOnly, HttpError } from '../middleware/errors';
import { jsonBody } from '../middleware/body';
import type { RateLimits } from '../middleware/rateLimit';
import {
  contactSchema,
  earlyAccessSchema,
  IDEMPOTENCY_KEY_FIELD,
  IDEMPOTENCY_KEY_HEADER,
  submissionSchema,
} from '@aitools/contracts/forms';
import { forwardToEmailMarketing } from './emailMarketing';
import { success } from '@aitools/contracts/answers';
import { checkForm, joinEarlyAccess, sendContactMessage, submitTool, type WriteResult } from './service';

/** Form bodies are small; anything larger is refused with 413 before it is read further (fits every field at its maximum). */
const BODY_LIMIT = '32kb';

const INVALID = 'Please correct the highlighted fields.';

/** The post's idempotency key: the header, or the hidden field of an HTML form post. */
function idempotencyKeyOf(req: Request): unknown {
  return req.get(IDEMPOTENCY_KEY_HEADER) ?? (req.body as Record<string, unknown> | undefined)?.[IDEMPOTENCY_KEY_FIELD];
}

/** 400 with the field errors before the rate limit counts anything: invalid posts never spend a visitor's budget. */
function validateFirst(schema: z.ZodType): RequestHandler {
  return (req, _res, next) => {
    const checked = checkForm(schema, req.body, idempotencyKeyOf(req));
    next(checked.ok ? undefined : new HttpError(400, INVALID, checked.fieldErrors));
  };
}

/** A refused write: 422 when the key was already used with other data (as the IETF Idempotency-Key draft says), else 400. */
function refused(result: Extract<WriteResult, { ok: false }>): HttpError {
  return new HttpError(result.conflict ? 422 : 400, INVALID, result.fieldErrors);
}

/** Submissions, contact messages and early-access signups. Every answer of success follows a committed write. */
export function formsRouter({
  db,
  config,
  logger,
  limits,
}: {
  db: DB;
  config: ServerConfig;
  logger: Logger;
  limits: RateLimits;
}): Router {
  const router = Router();
  const body = jsonBody(BODY_LIMIT);

  router.post('/submissions', body, validateFirst(submissionSchema), limits.submissions, async (req, res) => {
    const result = await submitTool(db, req.body, { idempotencyKey: idempotencyKeyOf(req) });
    if (!result.ok) throw refused(result);
    res.status(201).json(success({ id: result.id }));
  });

  router.post('/contact/submit', body, validateFirst(contactSchema), limits.contact, async (req, res) => {
    const result = await sendContactMessage(db, req.body, { idempotencyKey: idempotencyKeyOf(req) });
    if (!result.ok) throw refused(result);
    res.json(success({}));
  });

  router.post('/early-access', body, validateFirst(earlyAccessSchema), limits['early-access'], async (req, res) => {
    const result = await joinEarlyAccess(db, req.body, { idempotencyKey: idempotencyKeyOf(req) });
    if (!result.ok) throw refused(result);
    res.json(success({}));
    // After the answer: the visitor never waits for, or fails because of, the marketing service.
    if (result.created && !result.replayed && config.emailMarketingUrl)
      void forwardToEmailMarketing(config.emailMarketingUrl, result.email, logger);
  });

  router.all(['/submissions', '/contact/submit', '/early-access'], allowOnly('POST'));
  return router;
}
