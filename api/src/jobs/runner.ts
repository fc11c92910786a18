/**
 * The job runner's one interface over both databases (docs/operations.md, Jobs): on SQLite a small scheduler in
 * this process (localRunner.ts), on Postgres pg-boss's queue shared by every instance (queueRunner.ts). Both record
 * each run in job_runs (runs.ts) through the same attempt (execute.ts).
 */
import type { Logger } from 'pino';
import { dialectOf, type DB } from '../db/connection';
import { JOB_NAME, type Job } from './job';
import { lastGoodRun, lastRun, type JobRun } from './runs';
import { scheduleProblem, slotAt } from './schedule';
import { localRunner } from './localRunner';
import { queueRunner, type QueueSettings } from './queueRunner';

export interface JobStatus {
  name: string;
  about: string;
  every: string;
  last?: JobRun;
  /** The last run that ended ok: when the facts the job keeps were last made (a failure keeps them). */
  lastGood?: JobRun;
  /** When the next scheduled run is due (ISO). */
  next: string;
}

export interface JobRunner {
  readonly jobs: readonly Job[];
  /** Starts the schedule (main.ts). A runner never started still answers `runNow` and `status`. */
  start(): Promise<void>;
  /** Aborts running jobs (their signal) and waits for them to record their end. */
  stop(): Promise<void>;
  /** Asks for one run now, audited by the caller: here on SQLite, by whichever instance takes it on Postgres. */
  runNow(name: string, trigger: string): Promise<void>;
  status(): Promise<JobStatus[]>;
}

export interface RunnerOptions {
  db: DB;
  jobs: readonly Job[];
  logger: Logger;
  /** Postgres only: the database's URL and the queue's timings. */
  queue?: QueueSettings;
  now?: () => Date;
}

export class UnknownJobError extends Error {}

export function checkJobs(jobs: readonly Job[]): void {
  const seen = new Set<string>();
  for (const job of jobs) {
    if (!JOB_NAME.test(job.name)) throw new Error(`job name "${job.name}": lower-case letters, digits and dashes`);
    if (seen.has(job.name)) throw new Error(`job "${job.name}" is registered twice`);
    seen.add(job.name);
    const problem = scheduleProblem(job.every);
    if (problem) throw new Error(`job ${job.name}: ${problem}`);
    if (job.retries !== undefined && !(Number.isInteger(job.retries) && job.retries >= 0))
      throw new Error(`job ${job.name}: retries is a whole number`);
  }
}

export function createJobRunner(options: RunnerOptions): JobRunner {
  checkJobs(options.jobs);
  const now = options.now ?? (() => new Date());
  const backend =
    dialectOf(options.db) === 'postgres' && options.queue
      ? queueRunner({ ...options, queue: options.queue, now })
      : localRunner({ ...options, now });
  const find = (name: string) => {
    const job = options.jobs.find((j) => j.name === name);
    if (!job) throw new UnknownJobError(`No job named ${name}`);
    return job;
  };
  return {
    jobs: options.jobs,
    start: backend.start,
    stop: backend.stop,
    runNow: async (name, trigger) => backend.runNow(find(name), trigger),
    async status() {
      const at = now();
      return Promise.all(
        options.jobs.map(async (job) => {
          const [last, lastGood] = await Promise.all([
            lastRun(options.db, job.name),
            lastGoodRun(options.db, job.name),
          ]);
          return {
            name: job.name,
            about: job.about ?? '',
            every: describeEvery(job.every),
            ...(last ? { last } : {}),
            ...(lastGood ? { lastGood } : {}),
            next: slotAt(job.every, at).next.toISOString(),
          };
        }),
      );
    },
  };
}

/** "every 15 minutes", "daily", or the cron expression. */
export function describeEvery(every: Job['every']): string {
  if (typeof every === 'string') return `cron ${every} (UTC)`;
  if (every === 86_400_000) return 'daily (UTC midnight)';
  const units: [number, string][] = [
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1000, 'second'],
  ];
  for (const [ms, unit] of units)
    if (every % ms === 0) return every === ms ? `every ${unit}` : `every ${every / ms} ${unit}s`;
  return `every ${every} ms`;
}
