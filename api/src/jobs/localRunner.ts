/**
 * Jobs on SQLite: one process owns the database, so a timer per job is the whole scheduler. What is due is read from
 * job_runs, so a restart neither repeats a slot that ran nor forgets one it missed (it runs once at start), and a run
 * its process never finished is marked interrupted and retried like a failed one.
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { DB } from '../db/connection';
import { RETRY_DELAY_MS, retriesOf, type Job } from './job';
import { runAttempt, type Attempt } from './execute';
import { INTERRUPTED, lastScheduledRun } from './runs';
import { backoffMs, slotAt } from './schedule';

/** setTimeout's longest delay; a later time is planned again when it is reached. */
const MAX_DELAY = 2 ** 31 - 1;

export interface Backend {
  start(): Promise<void>;
  stop(): Promise<void>;
  runNow(job: Job, trigger: string): Promise<void>;
}

/** What runs next for a job, and when (epoch ms), from its last scheduled run. */
export function nextAttempt(job: Job, last: Awaited<ReturnType<typeof lastScheduledRun>>, now: Date) {
  const slot = slotAt(job.every, now);
  const fresh = (at: Date): { at: number; attempt: Attempt } => ({
    at: at.getTime(),
    attempt: { slot: at.toISOString(), attempt: 1, trigger: 'schedule' },
  });
  // A new install waits for its first slot; a slot missed while the site was down runs once, now.
  if (!last) return fresh(slot.next);
  if (last.slot < slot.start.toISOString()) return { ...fresh(slot.start), at: now.getTime() };
  if (last.status === 'failed' && last.attempt <= retriesOf(job)) {
    const at = Date.parse(last.finishedAt ?? last.startedAt) + backoffMs(last.attempt + 1, RETRY_DELAY_MS);
    if (at < slot.next.getTime())
      return { at, attempt: { slot: last.slot, attempt: last.attempt + 1, trigger: 'retry' } };
  }
  return fresh(slot.next);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export function localRunner(opts: { db: DB; jobs: readonly Job[]; logger: Logger; now: () => Date }): Backend {
  const { db, jobs, logger, now } = opts;
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Set<Promise<unknown>>();
  let shutdown = new AbortController();
  let started = false;

  const track = (p: Promise<unknown>) => {
    running.add(p);
    void p.finally(() => running.delete(p));
    return p;
  };

  async function plan(job: Job): Promise<void> {
    if (!started) return;
    const t = now();
    const { at, attempt } = nextAttempt(job, await lastScheduledRun(db, job.name), t);
    if (!started) return;
    const delay = Math.max(0, at - t.getTime());
    const timer = setTimeout(
      () => {
        timers.delete(job.name);
        if (delay > MAX_DELAY) return void plan(job);
        track(
          runAttempt(job, attempt, { db, logger, signal: shutdown.signal, now })
            .catch((err: unknown) => logger.error({ err, job: job.name }, 'a job run could not be recorded'))
            .finally(() => plan(job)),
        );
      },
      Math.min(delay, MAX_DELAY),
    );
    timer.unref();
    timers.set(job.name, timer);
  }

  /** Runs left `running` by a process of this machine that is gone (a crash, a kill) ended there. */
  async function markStale(): Promise<void> {
    const rows = await db.selectFrom('job_runs').select(['id', 'instance']).where('status', '=', 'running').execute();
    const host = hostname();
    const gone = rows.filter((r) => {
      const [h, pid] = r.instance.split(':');
      return h === host && !alive(Number(pid));
    });
    if (!gone.length) return;
    await db
      .updateTable('job_runs')
      .set({ status: 'failed', reason: INTERRUPTED, finished_at: now().toISOString() })
      .where(
        'id',
        'in',
        gone.map((r) => r.id),
      )
      .execute();
  }

  return {
    async start() {
      if (started) return;
      await markStale();
      started = true;
      shutdown = new AbortController();
      await Promise.all(jobs.map(plan));
    },
    async stop() {
      started = false;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      shutdown.abort(new Error('the process is stopping'));
      await Promise.allSettled([...running]);
    },
    // Resolves once the run's row is written (the console shows it running), not when it ends.
    runNow(job, trigger) {
      return new Promise<void>((resolve, reject) => {
        const slot = `now:${now().toISOString()}`;
        track(
          runAttempt(
            job,
            { slot, attempt: 1, trigger },
            { db, logger, signal: shutdown.signal, now, onStart: () => resolve() },
          )
            .then(() => resolve())
            .catch((err: unknown) => {
              logger.error({ err, job: job.name }, 'a job run could not be recorded');
              reject(err instanceof Error ? err : new Error(String(err)));
            }),
        );
      });
    },
  };
}
