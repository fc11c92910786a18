import express, { Router } from 'express';
import type { DB } from '../db/connection';
import { analyticsEventSchema } from '../contracts/tools';
import { HttpError } from '../middleware/errors';

/** Analytics events (SPEC section 7): validated tool_page_view events stored in the events table. */
export function eventsRouter(db: DB): Router {
  const router = Router();
  const insert = db.prepare('INSERT INTO events (event, data, timestamp) VALUES (?, ?, ?)');
  router.post('/', express.json({ limit: '8kb' }), (req, res) => {
    const parsed = analyticsEventSchema.safeParse(req.body);
    if (!parsed.success) {
      const fieldErrors = Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.') || 'body', i.message]));
      throw new HttpError(400, 'Invalid event', fieldErrors);
    }
    const { event, data, timestamp } = parsed.data;
    insert.run(event, JSON.stringify(data), new Date(timestamp).toISOString());
    res.status(201).json({ success: true });
  });
  return router;
}
