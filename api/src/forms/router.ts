import { Router } from 'express';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config';
import type { DB } from '../db/connection';

/** Submissions, contact messages and early-access signups (filled in by the forms work). */
export function formsRouter(_deps: { db: DB; config: ServerConfig; logger: Logger }): Router {
  return Router();
}
