/**
 * What a scheduled job is, on either database: a name, how often it runs, and the work. The runner (runner.ts)
 * gives each run its context: the database, a signal that aborts it (shutdown, its time limit), the actor its
 * writes are audited as, and `changed` to say what it changed, which the run's row keeps (docs/operations.md, Jobs).
 */
import type { Logger } from 'pino';
import type { DB } from '../db/connection';

/** Milliseconds between runs (slots aligned on the epoch: 86_400_000 is each UTC midnight), or a cron expression (UTC). */
export type Every = number | string;

export interface JobContext {
  db: DB;
  /** Aborted when the process stops or the run outlives its time limit: stop at the next safe point. */
  signal: AbortSignal;
  /** `job:<name>`: the actor of the audit rows its writes add (content/audit.ts). */
  actor: string;
  logger: Logger;
  /**
   * Counts what this run changed (`ctx.changed('updated', 1, 'acme-mcp 1.2.0 -> 1.3.0')`): the counts and the
   * details make the run's summary.
   */
  changed(kind: string, count?: number, detail?: string): void;
}

export interface Job {
  /** Lower-case letters, digits and dashes: also the queue's name on Postgres. */
  name: string;
  every: Every;
  run(ctx: JobContext): Promise<void>;
  /** What the console says the job does. */
  about?: string;
  /** How long a run may take before its signal aborts it (default 10 minutes). */
  timeoutMs?: number;
  /** Failed runs are tried again this many times, after 30 s, 60 s, 120 s… (default 2). */
  retries?: number;
  /** The first retry's delay, doubled for each next one (default 30 s; whole seconds on Postgres). */
  retryDelayMs?: number;
}

export const JOB_NAME = /^[a-z][a-z0-9-]{0,39}$/;
export const jobActor = (name: string) => `job:${name}`;
export const DEFAULT_TIMEOUT_MS = 10 * 60_000;
export const DEFAULT_RETRIES = 2;
/** The first retry's delay; each next one doubles it. */
export const RETRY_DELAY_MS = 30_000;
export const retriesOf = (job: Job) => job.retries ?? DEFAULT_RETRIES;
export const retryDelayOf = (job: Job) => job.retryDelayMs ?? RETRY_DELAY_MS;

/** A run asked for while a run of the same job is going (the console answers 409). */
export class JobRunningError extends Error {
  constructor(name: string) {
    super(`The ${name} job is running (or waiting to retry): ask again when its run has ended.`);
  }
}
