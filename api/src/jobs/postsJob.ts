/**
 * The publish-posts job: the scheduled posts whose time has come go out (blog/scheduler.ts), every POST_SCHEDULER_MS
 * (15 s), once per slot across the instances on Postgres.
 */
import { publishDuePosts } from '../blog/scheduler';
import type { Job } from './job';

export const POSTS_JOB = 'publish-posts';

export function postsJob(everyMs: number): Job {
  return {
    name: POSTS_JOB,
    every: everyMs,
    about: 'Publishes the scheduled posts whose time has come.',
    timeoutMs: 60_000,
    async run(ctx) {
      const slugs = await publishDuePosts(ctx.db, ctx.actor);
      if (slugs.length) ctx.changed('published', slugs.length, slugs.join(', '));
    },
  };
}
