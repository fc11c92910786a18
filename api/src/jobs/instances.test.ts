/**
 * The runner on the test database with real time: on Postgres (TEST_DATABASE_URL) two instances share pg-boss's
 * queue, on SQLite the one process runs alone. Either way each slot runs once, a failed run is retried by the queue
 * and a run asked for by hand runs once.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { PgBoss } from 'pg-boss';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onPostgres, testDatabaseLocation } from '../../test/testDatabase';
import { openDatabase, type DB } from '../db/connection';
import { createLogger } from '../middleware/logger';
import { createJobRunner, type JobRunner } from './runner';
import { JobRunningError, type Job } from './job';
import { listRuns } from './runs';

const logger = createLogger('silent');
let dbs: DB[] = [];
let runners: JobRunner[] = [];
let schema = '';

beforeEach(async () => {
  const location = await testDatabaseLocation(':memory:');
  // On SQLite one process owns the database; on Postgres two instances share it.
  dbs = onPostgres ? [await openDatabase(location), await openDatabase(location)] : [await openDatabase(location)];
  schema = `pgboss_${randomBytes(4).toString('hex')}`;
  runners = [];
  instances = (jobs) => {
    runners = dbs.map((db) =>
      createJobRunner({
        db,
        jobs,
        logger,
        ...(onPostgres
          ? {
              queue: {
                url: process.env.TEST_DATABASE_URL!,
                schema,
                pollSeconds: 0.5,
                heartbeatSeconds: 10,
                superviseSeconds: 1,
              },
            }
          : {}),
      }),
    );
    return runners;
  };
});
afterEach(async () => {
  await Promise.all(runners.map((r) => r.stop()));
  await Promise.all(dbs.map((db) => db.destroy()));
});

let instances: (jobs: Job[]) => JobRunner[];
const waitFor = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 30_000, interval: 100 });

describe(`jobs on ${onPostgres ? 'Postgres, two instances' : 'SQLite, one process'}`, () => {
  it('runs each slot once, whichever instance takes it', async () => {
    const job: Job = { name: 'tick', every: 1000, run: async (ctx) => ctx.changed('ticked') };
    for (const r of instances([job, { ...job, name: 'tock' }])) await r.start();
    await waitFor(async () => {
      const done = (await listRuns(dbs[0]!, { job: 'tick' })).filter((r) => r.status === 'ok');
      expect(done.length).toBeGreaterThanOrEqual(4);
    });
    const runs = await listRuns(dbs[0]!, { job: 'tick' });
    const slots = runs.map((r) => r.slot);
    expect(new Set(slots).size).toBe(slots.length);
    expect(runs.every((r) => r.attempt === 1 && r.trigger === 'schedule')).toBe(true);
    expect((await listRuns(dbs[0]!, { job: 'tock' })).length).toBeGreaterThan(0);
  });

  it('retries a failed run with the reason of each failure recorded, then it succeeds', async () => {
    let tries = 0;
    const job: Job = {
      name: 'flaky',
      every: 3_600_000,
      retries: 3,
      retryDelayMs: 1000,
      async run(ctx) {
        tries++;
        if (tries < 3) throw new Error(`try ${tries}: the upstream answered 500`);
        ctx.changed('updated');
      },
    };
    const [first] = instances([job]);
    for (const r of runners) await r.start();
    await first!.runNow('flaky', 'cli:operator');
    await waitFor(async () => {
      const runs = await listRuns(dbs[0]!, { job: 'flaky' });
      expect(runs[0]?.status).toBe('ok');
    });
    const runs = (await listRuns(dbs[0]!, { job: 'flaky' })).reverse();
    expect(runs.map((r) => [r.status, r.reason])).toEqual([
      ['failed', 'try 1: the upstream answered 500'],
      ['failed', 'try 2: the upstream answered 500'],
      ['ok', null],
    ]);
    expect(runs.map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(new Set(runs.map((r) => r.slot)).size).toBe(1);
    expect(runs[0]!.trigger).toBe('cli:operator');
  });

  it('runs a job asked for by hand once, for the one who asked', async () => {
    let calls = 0;
    const job: Job = { name: 'once', every: 3_600_000, run: async () => void calls++ };
    const all = instances([job]);
    for (const r of all) await r.start();
    await all[all.length - 1]!.runNow('once', 'person:1 Editor');
    await waitFor(async () => expect((await listRuns(dbs[0]!, { job: 'once' }))[0]?.status).toBe('ok'));
    const runs = await listRuns(dbs[0]!, { job: 'once' });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'person:1 Editor', attempt: 1 });
    expect(calls).toBe(1);
  });
});

// On SQLite the one process plans a job's next slot when its run ends (runner.test.ts holds that rule).
describe.runIf(onPostgres)('a job on Postgres runs once at a time across the instances', () => {
  it('keeps a slot due meanwhile waiting in the queue, and refuses a run asked by hand on the other instance', async () => {
    let going = 0;
    let most = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const job: Job = {
      name: 'slow',
      every: 1000,
      async run(ctx) {
        going++;
        most = Math.max(most, going);
        await gate;
        going--;
        ctx.changed('ran');
      },
    };
    // Its queue as an older build made it, without the policy: the runner makes it again.
    const older = new PgBoss({ connectionString: process.env.TEST_DATABASE_URL!, schema, schedule: false });
    await older.start();
    await older.createQueue('slow');
    await older.stop({ graceful: false, close: true });
    const all = instances([job]);
    for (const r of all) await r.start();
    await waitFor(async () => expect(going).toBe(1));
    for (const r of all) await expect(r.runNow('slow', 'person:1 Editor')).rejects.toThrow(JobRunningError);
    // Two later slots come due and wait: neither instance's worker takes one while the first run goes.
    const waiting = async () =>
      Number(
        (
          await sql<{ n: string }>`select count(*) as n from ${sql.table(`${schema}.job`)}
            where name = 'slow' and state = 'created' and start_after <= now()`.execute(dbs[0]!)
        ).rows[0]!.n,
      );
    await waitFor(async () => expect(await waiting()).toBeGreaterThanOrEqual(2));
    expect(most).toBe(1);
    open();
    await waitFor(async () => {
      const done = (await listRuns(dbs[0]!, { job: 'slow' })).filter((r) => r.status === 'ok');
      expect(done.length).toBeGreaterThanOrEqual(3);
    });
    expect(most).toBe(1);
    const runs = await listRuns(dbs[0]!, { job: 'slow' });
    expect(runs.every((r) => r.trigger === 'schedule')).toBe(true);
  });
});
