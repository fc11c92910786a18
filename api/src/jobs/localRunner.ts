/**
 * Jobs on SQLite: one process owns the database, so a timer per job is the whole scheduler. What is due is read from
 * job_runs, so a restart neither repeats a slot that ran nor forgets one it missed (it runs once at start), and a run
 * its process never finished is marked interrupted and retried like a failed one. A job runs once at a time: a "run now"
 * while it runs is refused, and a slot that comes due then waits for that run to end.
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { DB } from '../db/connection';
import { JobRunningError, retriesOf, retryDelayOf, type Job } from './job';
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
    const at = Date.parse(last.finishedAt ?? last.startedAt) + backoffMs(last.attempt + 1, retryDelayOf(job));
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
  /** Each job's run going (a scheduled attempt, or a hand-asked run with its retries), so none runs twice at once. */
  const going = new Map<string, Promise<unknown>>();
  let shutdown = new AbortController();
  let started = false;

  const track = (p: Promise<unknown>) => {
    running.add(p);
    void p.finally(() => running.delete(p));
    return p;
  };

  /** `run` is the job's run going until it ends; it never rejects (each caller catches). */
  const hold = (job: Job, run: Promise<unknown>) => {
    const p = run.finally(() => going.delete(job.name));
    going.set(job.name, p);
    return p;
  };

  async function plan(job: Job): Promise<void> {
    if (!started) return;
    const t = now();
    const { at, attempt } = nextAttempt(job, await lastScheduledRun(db, job.name), t);
    if (!started) return;
    const delay = Math.max(0, at - t.getTime());
    const due = (): void => {
      if (!started) return;
      // A run asked by hand is going: the slot waits for it to end, then runs.
      const busy = going.get(job.name);
      if (busy) return void track(busy.then(due));
      track(
        hold(
          job,
          runAttempt(job, attempt, { db, logger, signal: shutdown.signal, now }).catch((err: unknown) =>
            logger.error({ err, job: job.name }, 'a job run could not be recorded'),
          ),
        ).then(() => plan(job)),
      );
    };
    const timer = setTimeout(
      () => {
        timers.delete(job.name);
        if (delay > MAX_DELAY) return void plan(job);
        due();
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
    // Resolves once the run's row is written (the console shows it running), not when it ends. A failed attempt
    // is tried again with backoff like a scheduled one (in this process: a restart ends a hand-asked run's retries).
    // Refused while a run of the job is going: one at a time (the inspect job's one inspection, docs/mcp.md).
    runNow(job, trigger) {
      if (going.has(job.name)) return Promise.reject(new JobRunningError(job.name));
      const slot = `now:${now().toISOString()}`;
      return new Promise<void>((resolve, reject) => {
        const attempt = (n: number): Promise<void> =>
          runAttempt(
            job,
            { slot, attempt: n, trigger: n === 1 ? trigger : 'retry' },
            { db, logger, signal: shutdown.signal, now, onStart: () => resolve() },
          ).then((r) => {
            if (r.ok || n > retriesOf(job) || shutdown.signal.aborted) return;
            return new Promise<void>((wake) => {
              const timer = setTimeout(wake, backoffMs(n + 1, retryDelayOf(job)));
              timer.unref();
              shutdown.signal.addEventListener('abort', () => (clearTimeout(timer), wake()), { once: true });
            }).then(() => (shutdown.signal.aborted ? undefined : attempt(n + 1)));
          });
        track(
          hold(
            job,
            attempt(1).catch((err: unknown) => {
              logger.error({ err, job: job.name }, 'a job run could not be recorded');
              reject(err instanceof Error ? err : new Error(String(err)));
            }),
          ),
        );
      });
    },
  };
}
