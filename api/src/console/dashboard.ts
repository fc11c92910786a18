/** The dashboard (any role) and the instance's health. */
import { hostname } from 'node:os';
import { Router } from 'express';
import { sql } from 'kysely';
import { success } from '@aitools/contracts/answers';
import { dialectOf } from '../db/connection';
import { REMOTE_NAMES } from '../paths';
import type { ReleaseServing } from '../releases/serving';
import { allow } from './guard';
import { createReleaseViews, type ReleasesDeps } from './releases';
import { viewsPerRemotePerDay } from './series';
import { recentInstances } from './instances';

const VIEW_DAYS = 14;

export function dashboardRouter(deps: ReleasesDeps & { serving: ReleaseServing; instanceId?: string }): Router {
  const { db } = deps;
  const router = Router();
  const views = createReleaseViews(deps);
  const read = allow(db, 'read', 'dashboard.read');

  router.get('/dashboard', read, async (_req, res) => {
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const count = async (q: Promise<{ n: string | number | bigint } | undefined>) => Number((await q)?.n ?? 0);
    const pendingSubmissions = await count(
      db
        .selectFrom('submissions')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', '=', 'pending')
        .executeTakeFirst(),
    );
    const messagesThisWeek = await count(
      db
        .selectFrom('contact_messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('created_at', '>=', weekAgo)
        .executeTakeFirst(),
    );
    await deps.signals.flush();
    res.json(
      success({
        pendingSubmissions,
        messagesThisWeek,
        viewsPerRemotePerDay: await viewsPerRemotePerDay(db, VIEW_DAYS),
        remotes: await Promise.all(REMOTE_NAMES.map((r) => views.summary(r))),
      }),
    );
  });

  router.get('/health', read, async (_req, res) => {
    const started = Date.now();
    await sql`SELECT 1`.execute(db);
    const releases = deps.serving.health();
    const postgres = dialectOf(db) === 'postgres';
    res.json(
      success({
        // On Postgres, every instance that reported within two minutes (console/instances.ts).
        ...(postgres ? { instances: await recentInstances(db) } : {}),
        instance: {
          id: deps.instanceId ?? null,
          host: hostname(),
          pid: process.pid,
          uptimeSeconds: Math.round(process.uptime()),
          database: { dialect: dialectOf(db), ok: true, ms: Date.now() - started },
          memoryMb: Math.round(process.memoryUsage().rss / 1_048_576),
          releases,
        },
      }),
    );
  });

  return router;
}
