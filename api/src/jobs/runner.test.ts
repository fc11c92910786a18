/**
 * The job runner on SQLite (a scheduler in the process), with fake timers: each slot runs once, every run is
 * recorded, a failure says why, is retried with backoff and keeps the last good run; a restart neither repeats a slot
 * nor forgets one, and a run its process never finished is marked interrupted and retried.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DB } from '../db/connection';
import { createLogger } from '../middleware/logger';
import { listAudit, writeAudit } from '../content/audit';
import { createJobRunner, describeEvery, type JobRunner } from './runner';
import { JobRunningError } from './job';
import type { Job, JobContext } from './job';
import { INTERRUPTED, listRuns, pruneRuns, startRun } from './runs';
import { backoffMs, slotAt } from './schedule';
import { siteJobs, withSchedule } from './siteJobs';
import { loadConfig } from '../config';

const logger = createLogger('silent');
const MINUTE = 60_000;
// 10:00:30 UTC: half a minute into a one-minute slot.
const START = new Date('2026-12-01T10:00:30.000Z');

let db: DB;
const runners: JobRunner[] = [];
beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(START);
  db = await openDatabase(':memory:');
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
  await db.destroy();
  vi.useRealTimers();
});

function runner(jobs: Job[]) {
  const r = createJobRunner({ db, jobs, logger });
  runners.push(r);
  return r;
}

/** Lets the runner's database work (promises) finish without moving the clock. */
async function settle(done: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await done()) return;
    await vi.advanceTimersByTimeAsync(0);
  }
  throw new Error('the runner did not settle');
}
const runsOf = async (job: string) => (await listRuns(db, { job })).reverse();
const finished = (job: string, n: number) => async () => {
  const runs = await runsOf(job);
  return runs.length >= n && runs.every((r) => r.status !== 'running');
};

/** A job that counts its runs and fails while `failing` holds. */
function counter(name: string, opts: Partial<Job> & { failing?: () => boolean } = {}) {
  const calls: JobContext[] = [];
  const job: Job = {
    name,
    every: MINUTE,
    ...opts,
    async run(ctx) {
      calls.push(ctx);
      if (opts.failing?.()) throw new Error('the upstream answered 500');
      ctx.changed('updated', 2, 'a 1.0 -> 1.1');
      ctx.changed('queued', 1);
    },
  };
  return { job, calls };
}

describe('the schedule', () => {
  it('cuts intervals on the epoch and cron expressions at their occurrences, in UTC', () => {
    expect(slotAt(MINUTE, START)).toEqual({
      start: new Date('2026-12-01T10:00:00.000Z'),
      next: new Date('2026-12-01T10:01:00.000Z'),
    });
    expect(slotAt('0 3 * * *', START)).toEqual({
      start: new Date('2026-12-01T03:00:00.000Z'),
      next: new Date('2026-12-02T03:00:00.000Z'),
    });
    // An occurrence exactly now is the current slot.
    expect(slotAt('0 3 * * *', new Date('2026-12-01T03:00:00.000Z')).start).toEqual(
      new Date('2026-12-01T03:00:00.000Z'),
    );
    expect(backoffMs(2, 30_000)).toBe(30_000);
    expect(backoffMs(3, 30_000)).toBe(60_000);
    expect(describeEvery(86_400_000)).toBe('daily (UTC midnight)');
    expect(describeEvery(15 * MINUTE)).toBe('every 15 minutes');
  });

  it('refuses a bad name, a name given twice, and a schedule that is not one', () => {
    const ok = counter('ok').job;
    expect(() => runner([{ ...ok, name: 'Bad Name' }])).toThrow(/lower-case/);
    expect(() => runner([ok, ok])).toThrow(/registered twice/);
    expect(() => runner([{ ...ok, every: 'every day' }])).toThrow(/not a cron expression/);
    expect(() => runner([{ ...ok, every: 10 }])).toThrow(/at least 1000/);
  });

  it("takes the operator's schedule from JOB_<NAME>_EVERY, and refuses one that is not a schedule", () => {
    const config = loadConfig({ JOB_MY_SYNC_EVERY: '*/5 * * * *', JOB_OK_EVERY: '120000' });
    expect(config.jobs.every).toEqual({ 'my-sync': '*/5 * * * *', ok: 120_000 });
    expect(withSchedule(counter('my-sync').job, config.jobs.every).every).toBe('*/5 * * * *');
    expect(withSchedule(counter('ok').job, config.jobs.every).every).toBe(120_000);
    expect(() => withSchedule(counter('ok').job, { ok: 'soon' })).toThrow(/JOB_OK_EVERY: not a cron expression/);
    // Every registered job has a valid name and schedule.
    expect(() => createJobRunner({ db, jobs: siteJobs({ config: loadConfig({}), logger }), logger })).not.toThrow();
  });
});

describe('the runner on SQLite', () => {
  it('runs each slot once, from its first slot on, and records what each run changed', async () => {
    const { job, calls } = counter('tick');
    await runner([job]).start();
    // A new install waits for its first slot.
    await vi.advanceTimersByTimeAsync(29_000);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1000);
    await settle(finished('tick', 1));
    await vi.advanceTimersByTimeAsync(MINUTE);
    await settle(finished('tick', 2));
    const runs = await runsOf('tick');
    expect(runs.map((r) => [r.slot, r.attempt, r.trigger, r.status])).toEqual([
      ['2026-12-01T10:01:00.000Z', 1, 'schedule', 'ok'],
      ['2026-12-01T10:02:00.000Z', 1, 'schedule', 'ok'],
    ]);
    expect(runs[0]!.counts).toEqual({ updated: 2, queued: 1 });
    expect(runs[0]!.summary).toBe('2 updated, 1 queued: a 1.0 -> 1.1');
    expect(runs[0]!.finishedAt).toBe('2026-12-01T10:01:00.000Z');
    expect(calls[0]!.actor).toBe('job:tick');
    expect(calls[0]!.db).toBe(db);
  });

  it('records a failure with its reason, retries it with backoff, then waits for the next slot', async () => {
    const { job } = counter('flaky', { every: 10 * MINUTE, failing: () => true, retries: 2 });
    const r = runner([job]);
    await r.start();
    await vi.advanceTimersByTimeAsync(9.5 * MINUTE);
    await settle(finished('flaky', 1));
    // The first retry 30 s after, the second 60 s after that.
    await vi.advanceTimersByTimeAsync(29_000);
    expect(await runsOf('flaky')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    await settle(finished('flaky', 2));
    await vi.advanceTimersByTimeAsync(MINUTE);
    await settle(finished('flaky', 3));
    // No fourth try before the next slot.
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    const runs = await runsOf('flaky');
    expect(runs.map((x) => [x.slot, x.attempt, x.trigger, x.status, x.reason])).toEqual([
      ['2026-12-01T10:10:00.000Z', 1, 'schedule', 'failed', 'the upstream answered 500'],
      ['2026-12-01T10:10:00.000Z', 2, 'retry', 'failed', 'the upstream answered 500'],
      ['2026-12-01T10:10:00.000Z', 3, 'retry', 'failed', 'the upstream answered 500'],
    ]);
    // 10:16:30 now: the next slot is 10:20.
    await vi.advanceTimersByTimeAsync(3.5 * MINUTE);
    await settle(finished('flaky', 4));
    expect((await runsOf('flaky'))[3]!.slot).toBe('2026-12-01T10:20:00.000Z');
  });

  it('keeps the last good run (and what it wrote) when a later one fails', async () => {
    let failing = false;
    const job: Job = {
      name: 'facts',
      every: MINUTE,
      async run(ctx) {
        if (failing) throw new Error('the registry timed out');
        await writeAudit(ctx.db, { actor: ctx.actor, action: 'server.version', target: 'server acme' });
        ctx.changed('updated');
      },
    };
    const r = runner([job]);
    await r.start();
    await vi.advanceTimersByTimeAsync(30_000);
    await settle(finished('facts', 1));
    failing = true;
    await vi.advanceTimersByTimeAsync(MINUTE);
    await settle(finished('facts', 2));
    const [status] = await r.status();
    expect(status!.last).toMatchObject({ status: 'failed', reason: 'the registry timed out' });
    expect(status!.lastGood).toMatchObject({ status: 'ok', slot: '2026-12-01T10:01:00.000Z', summary: '1 updated' });
    expect(status!.next).toBe('2026-12-01T10:03:00.000Z');
    const { entries } = await listAudit(db, { actor: 'job:facts' });
    expect(entries).toHaveLength(1);
  });

  it('aborts a run that outlives its limit, and a run the process stops, each with the reason', async () => {
    const waits = (name: string, timeoutMs?: number): Job => ({
      name,
      every: MINUTE,
      ...(timeoutMs ? { timeoutMs } : {}),
      run: (ctx) =>
        new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped')))),
    });
    const r = runner([waits('slow', 5000), waits('long')]);
    await r.start();
    await vi.advanceTimersByTimeAsync(30_000);
    await vi.advanceTimersByTimeAsync(5000);
    await settle(finished('slow', 1));
    expect((await runsOf('slow'))[0]).toMatchObject({
      status: 'failed',
      reason: 'it took longer than its limit of 5 s',
    });
    expect((await runsOf('long'))[0]!.status).toBe('running');
    await r.stop();
    expect((await runsOf('long'))[0]).toMatchObject({ status: 'failed', reason: 'the process is stopping' });
  });

  it('after a restart, runs a missed slot once, repeats none, and retries a run whose process died', async () => {
    const { job, calls } = counter('daily', { every: 86_400_000 });
    // Yesterday's run went well; the day before's too.
    await startRun(db, { job: 'daily', slot: '2026-11-30T00:00:00.000Z', attempt: 1, trigger: 'schedule' }, START);
    await db.updateTable('job_runs').set({ status: 'ok' }).execute();
    const first = runner([job]);
    await first.start();
    // Today's slot (00:00) was missed while the site was down: it runs at once, and once.
    await settle(finished('daily', 2));
    await first.stop();
    const second = runner([job]);
    await second.start();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(calls).toHaveLength(1);
    await second.stop();
    // A run left `running` by a process of this machine that is gone is marked interrupted, and retried.
    await db
      .insertInto('job_runs')
      .values({
        job: 'daily',
        slot: '2026-12-01T00:00:00.000Z',
        attempt: 2,
        trigger: 'retry',
        instance: `${(await import('node:os')).hostname()}:2147483646`,
        started_at: START.toISOString(),
        status: 'running',
        summary: '',
        counts: '{}',
      })
      .execute();
    const third = runner([job]);
    await third.start();
    const runs = await runsOf('daily');
    expect(runs[2]).toMatchObject({ status: 'failed', reason: INTERRUPTED });
    await vi.advanceTimersByTimeAsync(60_000);
    await settle(finished('daily', 4));
    expect((await runsOf('daily'))[3]).toMatchObject({ attempt: 3, trigger: 'retry', status: 'ok' });
  });

  it('runs a job now for the one who asked, leaving the schedule as it was', async () => {
    const { job, calls } = counter('tick');
    const r = runner([job]);
    await r.start();
    await r.runNow('tick', 'person:1 Editor');
    await settle(finished('tick', 1));
    const [run] = await runsOf('tick');
    expect(run).toMatchObject({ trigger: 'person:1 Editor', status: 'ok', slot: `now:${START.toISOString()}` });
    await vi.advanceTimersByTimeAsync(30_000);
    await settle(finished('tick', 2));
    expect(calls).toHaveLength(2);
    expect((await runsOf('tick'))[1]!.slot).toBe('2026-12-01T10:01:00.000Z');
    await expect(r.runNow('nope', 'cli:x')).rejects.toThrow('No job named nope');
  });

  it('runs a job once at a time: "run now" while it runs is refused, and a slot due meanwhile waits for it', async () => {
    // A slow job that counts how many of its runs go at once, each ended by hand.
    let going = 0;
    let most = 0;
    const ends: (() => void)[] = [];
    const job: Job = {
      name: 'slow',
      every: MINUTE,
      async run() {
        most = Math.max(most, ++going);
        await new Promise<void>((end) => ends.push(end));
        going--;
      },
    };
    const r = runner([job]);
    await r.start();
    await r.runNow('slow', 'person:1 Editor');
    await settle(async () => ends.length === 1);
    await expect(r.runNow('slow', 'person:2 Other')).rejects.toThrow(JobRunningError);
    // 10:01, the slot comes due while the hand-asked run goes: it waits.
    await vi.advanceTimersByTimeAsync(30_000);
    expect(ends).toHaveLength(1);
    ends[0]!();
    await settle(async () => ends.length === 2);
    // The slot's run, now going: "run now" is refused again.
    await expect(r.runNow('slow', 'person:1 Editor')).rejects.toThrow('The slow job is running');
    ends[1]!();
    await settle(finished('slow', 2));
    expect(most).toBe(1);
    expect((await runsOf('slow')).map((x) => [x.slot, x.trigger, x.status])).toEqual([
      [`now:${START.toISOString()}`, 'person:1 Editor', 'ok'],
      ['2026-12-01T10:01:00.000Z', 'schedule', 'ok'],
    ]);
    // Once it has ended, it can be asked again.
    await r.runNow('slow', 'person:2 Other');
    await settle(async () => ends.length === 3);
    ends[2]!();
    await settle(finished('slow', 3));
  });

  it('keeps the newest runs of each job only', async () => {
    for (let i = 0; i < 5; i++) await startRun(db, { job: 'a', slot: `s${i}`, attempt: 1, trigger: 'schedule' }, START);
    await startRun(db, { job: 'b', slot: 's', attempt: 1, trigger: 'schedule' }, START);
    await pruneRuns(db, 'a', 3);
    expect((await runsOf('a')).map((r) => r.slot)).toEqual(['s2', 's3', 's4']);
    expect(await runsOf('b')).toHaveLength(1);
  });

  it('starts nothing until started, and nothing after stop', async () => {
    const { job, calls } = counter('tick');
    const r = runner([job]);
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(calls).toHaveLength(0);
    await r.start();
    await r.stop();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(calls).toHaveLength(0);
  });
});
