import { Router } from 'express';
import type { DB } from '../db/connection';

/** Analytics events (tool_page_view); filled in by the directory work. */
export function eventsRouter(_db: DB): Router {
  return Router();
}
