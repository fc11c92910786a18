/**
 * The job_runs table: one row per run, written when it starts and when it ends. A run whose process stopped stays
 * `running` until the next start (SQLite) or the queue's retry (Postgres) marks it failed with the reason.
 */
import { hostname } from 'node:os';
import type { DB } from '../db/connection';
import type { JobRunsTable } from '../db/schema';

export interface JobRun {
  id: number;
  job: string;
  slot: string;
  attempt: number;
  trigger: string;
  instance: string;
  queueId: string | null;
  startedAt: string;
  finishedAt: string | null;
  status: JobRunsTable['status'];
  reason: string | null;
  summary: string;
  counts: Record<string, number>;
}

export const INSTANCE = `${hostname()}:${process.pid}`;
/** The most a reason or a summary keeps. */
export const RUN_TEXT_MAX = 2000;
const cut = (text: string) => (text.length > RUN_TEXT_MAX ? `${text.slice(0, RUN_TEXT_MAX - 1)}…` : text);

export const INTERRUPTED = 'interrupted: the process running it stopped before it finished';

type Row = Omit<JobRunsTable, 'id'> & { id: number };
const toRun = (r: Row): JobRun => ({
  id: Number(r.id),
  job: r.job,
  slot: r.slot,
  attempt: Number(r.attempt),
  trigger: r.trigger,
  instance: r.instance,
  queueId: r.queue_id,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  status: r.status,
  reason: r.reason,
  summary: r.summary,
  counts: JSON.parse(r.counts) as Record<string, number>,
});

export async function startRun(
  db: DB,
  run: { job: string; slot: string; attempt: number; trigger: string; queueId?: string },
  now: Date,
): Promise<number> {
  const row = await db
    .insertInto('job_runs')
    .values({
      job: run.job,
      slot: run.slot,
      attempt: run.attempt,
      trigger: run.trigger,
      instance: INSTANCE,
      queue_id: run.queueId ?? null,
      started_at: now.toISOString(),
      status: 'running',
      summary: '',
      counts: '{}',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function finishRun(
  db: DB,
  id: number,
  outcome: { status: 'ok' | 'failed'; reason?: string; summary: string; counts: Record<string, number> },
  now: Date,
): Promise<void> {
  await db
    .updateTable('job_runs')
    .set({
      finished_at: now.toISOString(),
      status: outcome.status,
      reason: outcome.reason ? cut(outcome.reason) : null,
      summary: cut(outcome.summary),
      counts: JSON.stringify(outcome.counts),
    })
    .where('id', '=', id)
    .execute();
}

/** Marks runs left `running` as failed (interrupted): all of this database's (SQLite, one process) or one queue
 *  job's earlier attempts (Postgres, when the queue hands the job to another try). */
export async function markInterrupted(db: DB, now: Date, queueId?: string): Promise<number> {
  let q = db
    .updateTable('job_runs')
    .set({ status: 'failed', reason: INTERRUPTED, finished_at: now.toISOString() })
    .where('status', '=', 'running');
  if (queueId) q = q.where('queue_id', '=', queueId);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Whether a run of the job started after `since` is still going on any instance (one older has outlived its
 *  time limit: its instance died, and the queue's retry marks it). */
export async function runningSince(db: DB, job: string, since: Date): Promise<boolean> {
  const row = await db
    .selectFrom('job_runs')
    .select('id')
    .where('job', '=', job)
    .where('status', '=', 'running')
    .where('started_at', '>', since.toISOString())
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The newest run of a job: of any kind, only the schedule's (a run asked for by hand, slot `now:…`, leaves the
 *  schedule as it was), or only a good one (the facts' date the console shows when later runs failed). */
async function newestRun(db: DB, job: string, only: 'any' | 'scheduled' | 'ok'): Promise<JobRun | undefined> {
  let q = db.selectFrom('job_runs').selectAll().where('job', '=', job);
  if (only === 'scheduled') q = q.where('slot', 'not like', 'now:%');
  if (only === 'ok') q = q.where('status', '=', 'ok');
  const row = await q.orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row ? toRun(row as Row) : undefined;
}

export const lastRun = (db: DB, job: string) => newestRun(db, job, 'any');
export const lastScheduledRun = (db: DB, job: string) => newestRun(db, job, 'scheduled');
export const lastGoodRun = (db: DB, job: string) => newestRun(db, job, 'ok');

/** Newest first. */
export async function listRuns(db: DB, filter: { job?: string; limit?: number } = {}): Promise<JobRun[]> {
  let q = db
    .selectFrom('job_runs')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(Math.min(Math.max(filter.limit ?? 50, 1), 500));
  if (filter.job) q = q.where('job', '=', filter.job);
  return ((await q.execute()) as Row[]).map(toRun);
}

/** Runs kept per job: the newest this many (a job every 15 s makes 5,760 a day). */
export const RUNS_KEPT = 1000;

/** Drops a job's runs beyond the newest `keep`. */
export async function pruneRuns(db: DB, job: string, keep = RUNS_KEPT): Promise<void> {
  const edge = await db
    .selectFrom('job_runs')
    .select('id')
    .where('job', '=', job)
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1)
    .executeTakeFirst();
  if (edge) await db.deleteFrom('job_runs').where('job', '=', job).where('id', '<=', edge.id).execute();
}
