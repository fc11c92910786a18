/**
 * Jobs on Postgres, shared by every instance through pg-boss's queue (docs/dependencies.md, why pg-boss). Each
 * instance keeps the same timers as on SQLite, but a due slot is sent to the queue as a job whose id is made from
 * the job's name and the slot: the instances that send it together make one row, so each slot runs once, on
 * whichever instance's worker claims it. A failed run is retried with backoff; a run whose instance died stops
 * beating its heartbeat, and pg-boss hands it to another instance (its row is marked interrupted first).
 * A job runs once at a time across the instances: its queue's policy is pg-boss's `singleton` (one active job; a
 * slot due meanwhile waits in the queue), and a run asked by hand while one is going is refused, as on SQLite.
 */
import { createHash, randomUUID } from 'node:crypto';
import { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { DB } from '../db/connection';
import { DEFAULT_TIMEOUT_MS, JobRunningError, retriesOf, retryDelayOf, type Job } from './job';
import { runAttempt } from './execute';
import { lastScheduledRun, markInterrupted, runningSince } from './runs';
import { slotAt } from './schedule';
import type { Backend } from './localRunner';

export interface QueueSettings {
  url: string;
  /** How often an idle worker asks the queue for work (JOBS_POLL_SECONDS). */
  pollSeconds: number;
  /** A running job's heartbeat; one missed this long is retried elsewhere (JOBS_HEARTBEAT_SECONDS, at least 10). */
  heartbeatSeconds: number;
  /** How often pg-boss looks for dead runs and expired jobs (JOBS_SUPERVISE_SECONDS). */
  superviseSeconds: number;
  /** pg-boss's schema (JOBS_SCHEMA; QUEUE_SCHEMA by default; each test its own). */
  schema?: string;
}

/** pg-boss's own tables live in this schema. */
export const QUEUE_SCHEMA = 'pgboss';

/** One id per job and slot (a UUID's shape, from a SHA-1 of both): every instance sends the same one. */
export function slotJobId(name: string, slot: string): string {
  const h = createHash('sha1').update(`${name}@${slot}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

interface Payload {
  slot: string;
  trigger: string;
}

const MAX_DELAY = 2 ** 31 - 1;

/** A run still going this long after it started has outlived its time limit by a minute: its instance died. The
 *  queue expires the job then, and Run now stops counting its row as going. */
const outlivedAfterMs = (job: Job) => (job.timeoutMs ?? DEFAULT_TIMEOUT_MS) + 60_000;

export function queueRunner(opts: {
  db: DB;
  jobs: readonly Job[];
  logger: Logger;
  queue: QueueSettings;
  now: () => Date;
}): Backend {
  const { db, jobs, logger, queue, now } = opts;
  const timers = new Map<string, NodeJS.Timeout>();
  let boss: PgBoss | undefined;
  let ready: Promise<PgBoss> | undefined;
  let started = false;
  const shutdown = new AbortController();

  /** The queue's connection, opened at the first use (a start, or a "run now" on a runner never started). */
  function connect(): Promise<PgBoss> {
    ready ??= (async () => {
      const b = new PgBoss({
        connectionString: queue.url,
        schema: queue.schema ?? QUEUE_SCHEMA,
        max: 3,
        application_name: 'aitools-jobs',
        schedule: false,
        superviseIntervalSeconds: queue.superviseSeconds,
        monitorIntervalSeconds: queue.superviseSeconds,
      });
      b.on('error', (err) => logger.warn({ err }, 'job queue error'));
      await b.start();
      for (const job of jobs) {
        const settings = {
          retryLimit: retriesOf(job),
          retryDelay: Math.max(1, Math.round(retryDelayOf(job) / 1000)),
          retryBackoff: true,
          heartbeatSeconds: queue.heartbeatSeconds,
          expireInSeconds: Math.ceil(outlivedAfterMs(job) / 1000),
        };
        // A queue's policy cannot change once made: one an older build made without it is made again (a slot it
        // held is sent again by plan(), as a missed one).
        if ((await b.getQueue(job.name))?.policy !== 'singleton') await b.deleteQueue(job.name);
        await b.createQueue(job.name, { ...settings, policy: 'singleton' });
        await b.updateQueue(job.name, settings);
      }
      boss = b;
      return b;
    })();
    return ready;
  }

  async function send(job: Job, payload: Payload, id?: string): Promise<void> {
    const b = await connect();
    await b.send(job.name, payload, id ? { id } : {});
  }

  async function plan(job: Job): Promise<void> {
    if (!started) return;
    const t = now();
    const slot = slotAt(job.every, t);
    const last = await lastScheduledRun(db, job.name);
    // A slot missed while every instance was down runs once, now; a new install waits for its first slot.
    if (last && last.slot < slot.start.toISOString()) {
      const at = slot.start.toISOString();
      await send(job, { slot: at, trigger: 'schedule' }, slotJobId(job.name, at));
    }
    if (!started) return;
    const delay = slot.next.getTime() - t.getTime();
    const timer = setTimeout(
      () => {
        timers.delete(job.name);
        if (delay > MAX_DELAY) return void plan(job);
        const at = slot.next.toISOString();
        send(job, { slot: at, trigger: 'schedule' }, slotJobId(job.name, at))
          .catch((err: unknown) => logger.warn({ err, job: job.name }, 'a scheduled job could not be queued'))
          .finally(() => void plan(job));
      },
      Math.min(Math.max(0, delay), MAX_DELAY),
    );
    timer.unref();
    timers.set(job.name, timer);
  }

  return {
    async start() {
      if (started) return;
      const b = await connect();
      started = true;
      for (const job of jobs)
        await b.work<Payload>(
          job.name,
          {
            pollingIntervalSeconds: queue.pollSeconds,
            heartbeatRefreshSeconds: Math.max(1, queue.heartbeatSeconds / 5),
          },
          async ([claimed]) => {
            if (!claimed) return;
            // A retry after its instance died: that attempt's row still says running.
            if (claimed.retryCount > 0) await markInterrupted(db, now(), claimed.id);
            const r = await runAttempt(
              job,
              {
                slot: claimed.data.slot,
                attempt: claimed.retryCount + 1,
                trigger: claimed.retryCount > 0 ? 'retry' : claimed.data.trigger,
                queueId: claimed.id,
              },
              { db, logger, now, signal: AbortSignal.any([claimed.signal, shutdown.signal]) },
            );
            // Thrown, so pg-boss retries it with backoff.
            if (!r.ok) throw new Error(r.reason);
          },
        );
      await Promise.all(jobs.map(plan));
    },
    async stop() {
      started = false;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      shutdown.abort(new Error('the process is stopping'));
      if (ready) await ready.catch(() => undefined);
      await boss?.stop({ graceful: true, timeout: 10_000, close: true });
    },
    async runNow(job, trigger) {
      if (await runningSince(db, job.name, new Date(now().getTime() - outlivedAfterMs(job))))
        throw new JobRunningError(job.name);
      await send(job, { slot: `now:${randomUUID()}`, trigger });
    },
  };
}
