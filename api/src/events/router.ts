import { Router, type RequestHandler } from 'express';
import { fieldErrorsOf } from '@aitools/contracts/zod';
import type { DB } from '../db/connection';
import { allowOnly, HttpError } from '../middleware/errors';
import { jsonBody } from '../middleware/body';
import { insertEvent, type EventRetention } from './repository';
import { success } from '@aitools/contracts/answers';
import { storedEventSchema } from './schema';

/**
 * Analytics events (docs/product.md, API calls): validated tool_page_view events stored in the events table. Validated
 * before the rate limit counts, with their own budget and a retention.
 */
export function eventsRouter(
  db: DB,
  { limit, retention }: { limit: RequestHandler; retention: EventRetention },
): Router {
  const router = Router();
  router.post(
    '/',
    jsonBody('8kb'),
    (req, res, next) => {
      const parsed = storedEventSchema.safeParse(req.body);
      if (!parsed.success) {
        return next(new HttpError(400, 'Invalid event', fieldErrorsOf(parsed.error, 'body')));
      }
      res.locals.event = parsed.data;
      next();
    },
    limit,
    async (_req, res) => {
      await insertEvent(db, res.locals.event, retention);
      res.status(201).json(success({}));
    },
  );
  router.all('/', allowOnly('POST'));
  return router;
}
