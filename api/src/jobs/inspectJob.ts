/**
 * The inspect job: the servers waiting in inspection_queue (a new version, or an editor's ask) are inspected one at a
 * time through the registry's inspector (registry/inspect.ts inspectAndWrite, which runs packages in the sandbox and
 * keeps the last good inspection when a run cannot inspect). A server is taken off the queue once inspected; one the
 * inspector refused stays queued, and the run fails with the reason. Remote servers are not this job's: the
 * `inspect-remotes` job (remoteJobs.ts) is the one that asks them over their transport.
 */
import type { DB } from '../db/connection';
import type { Job } from './job';

/** Inspects these servers (by tool slug) and writes what they offer, a changed inspection audited as `actor`. */
export type Inspector = (db: DB, slugs: string[], log: (line: string) => void, actor: string) => Promise<void>;

export const INSPECT_JOB = 'inspect';
/** The most servers one run takes (each may take a minute in the sandbox). */
export const INSPECTIONS_PER_RUN = 10;

/** Puts a server on the queue (or moves its entry to this version and time). */
export async function queueInspection(db: DB, slug: string, version: string | null, reason: string): Promise<void> {
  const row = { tool_slug: slug, version, reason, queued_at: new Date().toISOString() };
  await db
    .insertInto('inspection_queue')
    .values(row)
    .onConflict((oc) => oc.column('tool_slug').doUpdateSet({ version, reason, queued_at: row.queued_at }))
    .execute();
}

export async function queuedInspections(db: DB) {
  return db.selectFrom('inspection_queue').selectAll().orderBy('queued_at').orderBy('tool_slug').execute();
}

export function inspectJob(inspect: Inspector): Job {
  return {
    name: INSPECT_JOB,
    every: 5 * 60_000,
    about:
      'Inspects the servers waiting for it (a new version, or asked for) in the sandbox; a failure keeps the last good inspection.',
    timeoutMs: 30 * 60_000,
    async run(ctx) {
      const waiting = (await queuedInspections(ctx.db)).slice(0, INSPECTIONS_PER_RUN);
      const failures: string[] = [];
      for (const entry of waiting) {
        if (ctx.signal.aborted) throw ctx.signal.reason;
        const listed = await ctx.db
          .selectFrom('mcp_servers')
          .select('name')
          .where('tool_slug', '=', entry.tool_slug)
          .executeTakeFirst();
        // Only entries as they were read leave the queue: one queued again meanwhile waits for the next run.
        const done = () =>
          ctx.db
            .deleteFrom('inspection_queue')
            .where('tool_slug', '=', entry.tool_slug)
            .where('queued_at', '=', entry.queued_at)
            .execute();
        if (!listed) {
          await done();
          ctx.changed('dropped (no longer listed)', 1, entry.tool_slug);
          continue;
        }
        const lines: string[] = [];
        try {
          await inspect(ctx.db, [entry.tool_slug], (line) => lines.push(line), ctx.actor);
        } catch (err) {
          if (ctx.signal.aborted) throw ctx.signal.reason;
          failures.push(`${entry.tool_slug}: ${err instanceof Error ? err.message : String(err)}`);
          continue;
        }
        await done();
        ctx.changed('inspected', 1, lines.join(' ') || entry.tool_slug);
      }
      if (failures.length)
        throw new Error(
          `${failures.length} of ${waiting.length} servers could not be inspected (they stay queued and keep their last inspection): ${failures.join('; ')}`,
        );
    },
  };
}
