/**
 * One attempt of a job, recorded: its row is written when it starts and when it ends, ok with what it changed, or
 * failed with why. A failure never undoes what the job wrote before it (each write is its own transaction through
 * content/), and never touches the facts it did not reach: the last good facts stay.
 */
import type { Logger } from 'pino';
import type { DB } from '../db/connection';
import { DEFAULT_TIMEOUT_MS, jobActor, type Job } from './job';
import { finishRun, startRun } from './runs';

export interface Attempt {
  slot: string;
  attempt: number;
  trigger: string;
  queueId?: string;
}

export interface AttemptResult {
  runId: number;
  ok: boolean;
  reason?: string;
  summary: string;
  counts: Record<string, number>;
}

/** "3 updated, 1 queued: acme 1.2 -> 1.3; …" (the details cut to the first few). */
export function summarise(counts: Record<string, number>, details: string[]): string {
  const parts = Object.entries(counts).map(([kind, n]) => `${n} ${kind}`);
  const head = parts.length ? parts.join(', ') : 'nothing changed';
  const shown = details.slice(0, 10);
  const more = details.length > shown.length ? `; and ${details.length - shown.length} more` : '';
  return shown.length ? `${head}: ${shown.join('; ')}${more}` : head;
}

export const reasonOf = (err: unknown) =>
  err instanceof Error ? err.message || err.name : typeof err === 'string' ? err : JSON.stringify(err);

export async function runAttempt(
  job: Job,
  attempt: Attempt,
  deps: { db: DB; logger: Logger; signal?: AbortSignal; now?: () => Date; onStart?: (runId: number) => void },
): Promise<AttemptResult> {
  const now = deps.now ?? (() => new Date());
  const { db } = deps;
  const runId = await startRun(db, { job: job.name, ...attempt }, now());
  deps.onStart?.(runId);
  const counts: Record<string, number> = {};
  const details: string[] = [];
  const controller = new AbortController();
  const timeoutMs = job.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timer = setTimeout(
    () => controller.abort(new Error(`it took longer than its limit of ${Math.round(timeoutMs / 1000)} s`)),
    timeoutMs,
  );
  const stop = () => controller.abort(new Error('the process is stopping'));
  deps.signal?.addEventListener('abort', stop, { once: true });
  if (deps.signal?.aborted) stop();
  const logger = deps.logger.child({ job: job.name, run: runId });
  let failure: string | undefined;
  try {
    await job.run({
      db,
      signal: controller.signal,
      actor: jobActor(job.name),
      logger,
      changed(kind, count = 1, detail) {
        counts[kind] = (counts[kind] ?? 0) + count;
        if (detail) details.push(detail);
      },
    });
    // A job that ignored its signal still failed when the signal fired: what it did after may be half done.
    if (controller.signal.aborted) failure = reasonOf(controller.signal.reason);
  } catch (err) {
    failure = controller.signal.aborted ? reasonOf(controller.signal.reason) : reasonOf(err);
  } finally {
    clearTimeout(timer);
    deps.signal?.removeEventListener('abort', stop);
  }
  const summary = summarise(counts, details);
  await finishRun(
    db,
    runId,
    failure ? { status: 'failed', reason: failure, summary, counts } : { status: 'ok', summary, counts },
    now(),
  );
  if (failure) logger.warn({ reason: failure, attempt: attempt.attempt }, `job ${job.name} failed`);
  else logger.info({ summary }, `job ${job.name} ran`);
  return failure ? { runId, ok: false, reason: failure, summary, counts } : { runId, ok: true, summary, counts };
}
