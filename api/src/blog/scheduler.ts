/**
 * Scheduled posts go out on their own: the publish-posts job (jobs/postsJob.ts) publishes the posts whose time has
 * come, in one transaction that bumps the data version only when it changed a row. Two calls racing on the same post
 * are harmless: the update names only posts still scheduled, so one of them publishes it and the other finds nothing
 * to do (docs/operations.md, Editing content).
 */
import type { DB } from '../db/connection';
import { publicWrite } from '../content/dataVersion';
import { writeAudit } from '../content/audit';

/** Publishes the scheduled posts due at `now`, audited as `actor`; returns their slugs (none: nothing was written). */
export async function publishDuePosts(db: DB, actor: string, now = new Date()): Promise<string[]> {
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
      actor,
      action: 'post.publish',
      target: `post ${slug}`,
      summary: 'scheduled -> published (its time came)',
    });
  return slugs;
}
