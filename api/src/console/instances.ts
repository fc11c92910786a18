/**
 * Which instances share the database (Postgres): each writes its row every REPORT_MS, and the console's health page
 * lists those seen within RECENT_MS. A timer, never work on a request; rows of instances gone a day are removed.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { DB } from '../db/connection';

export const REPORT_MS = 30_000;
const RECENT_MS = 2 * 60_000;
const FORGET_MS = 86_400_000;

export interface InstanceRow {
  id: string;
  host: string;
  pid: number;
  startedAt: string;
  seenAt: string;
  status: string;
}

export function reportInstance(
  db: DB,
  status: () => string,
  logger: Pick<Logger, 'warn'>,
): { id: string; first: Promise<void>; stop(): void } {
  const id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const startedAt = new Date().toISOString();
  const report = async () => {
    const now = Date.now();
    const row = { host: hostname(), pid: process.pid, started_at: startedAt, seen_at: now, status: status() };
    await db
      .insertInto('instances')
      .values({ id, ...row })
      .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: now, status: row.status }))
      .execute();
    await db
      .deleteFrom('instances')
      .where('seen_at', '<', now - FORGET_MS)
      .execute();
  };
  const tick = () => report().catch((err: unknown) => logger.warn({ err }, 'instance report failed'));
  const first = tick();
  const timer = setInterval(() => void tick(), REPORT_MS);
  timer.unref();
  return { id, first, stop: () => clearInterval(timer) };
}

export async function recentInstances(db: DB, now = Date.now()): Promise<InstanceRow[]> {
  const rows = await db
    .selectFrom('instances')
    .selectAll()
    .where('seen_at', '>=', now - RECENT_MS)
    .orderBy('started_at')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    host: r.host,
    pid: Number(r.pid),
    startedAt: r.started_at,
    seenAt: new Date(Number(r.seen_at)).toISOString(),
    status: r.status,
  }));
}
