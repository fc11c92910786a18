/**
 * Scheduled posts go out on their own: a timer in every instance publishes the posts whose time has come, in one
 * transaction that bumps the data version only when it changed a row. Instances racing on the same post are harmless:
 * the update names only posts still scheduled, so one of them publishes it and the others find nothing to do
 * (docs/operations.md, Editing content).
 */
import type { Logger } from 'pino';
import type { DB } from '../db/connection';
import { publicWrite } from '../content/dataVersion';
import { writeAudit } from '../content/audit';

export const SCHEDULER_ACTOR = 'scheduler';

/** Publishes the scheduled posts due at `now`; returns their slugs (none: nothing was written). */
export async function publishDuePosts(db: DB, now = new Date()): Promise<string[]> {
  let slugs: string[] = [];
  await publicWrite(db, async (trx) => {
    const rows = await trx
      .updateTable('blog_posts')
      .set({ status: 'published', updated_at: now.toISOString() })
      .where('status', '=', 'scheduled')
      .where('published_at', '<=', now.toISOString())
      .returning('slug')
      .execute();
    slugs = rows.map((r) => r.slug);
    return slugs.length > 0;
  });
  for (const slug of slugs)
    await writeAudit(db, {
      actor: SCHEDULER_ACTOR,
      action: 'post.publish',
      target: `post ${slug}`,
      summary: 'scheduled -> published (its time came)',
    });
  return slugs;
}

/** Checks every `everyMs` (POST_SCHEDULER_MS); a failed check is logged and the next one tries again. */
export function startPostScheduler(db: DB, everyMs: number, logger: Logger): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    publishDuePosts(db)
      .then((slugs) => slugs.length && logger.info({ slugs }, 'scheduled posts published'))
      .catch((err: unknown) => logger.warn({ err }, 'publishing scheduled posts failed'))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
