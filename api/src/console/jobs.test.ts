/** The Registry screen's api: each job's state and recent runs for editors and admins, "run now" audited, and every
 *  other role refused (and audited) on every call. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signedInPerson, startConsoleTest, type ConsoleTest } from '../../test/consoleHarness';
import { listRuns } from '../jobs/runs';
import { queueInspection } from '../jobs/inspectJob';
import { JobRunningError } from '../jobs/job';

let t: ConsoleTest;
beforeAll(async () => {
  t = await startConsoleTest();
});
afterAll(() => t.close());

const auditRows = (action: string) =>
  t.db.selectFrom('console_audit').selectAll().where('action', '=', action).orderBy('id').execute();

describe('jobs in the console', () => {
  it("shows an editor each job's schedule, runs and the inspection queue", async () => {
    await t.db
      .insertInto('tools')
      .values({ slug: 'acme', name: 'Acme', doc: '{}', created_at: '2026-01-01T00:00:00.000Z' } as never)
      .execute();
    await queueInspection(t.db, 'acme', '1.1.0', 'new version 1.1.0');
    const { browser } = await signedInPerson(t, 'Jobs editor', [{ role: 'editor' }]);
    const res = await browser.get('/api/jobs');
    expect(res.status).toBe(200);
    expect(res.body.jobs.map((j: { name: string }) => j.name)).toEqual([
      'versions',
      'inspect',
      'publish-posts',
      'sync',
      'health',
      'inspect-remotes',
    ]);
    const versions = res.body.jobs[0];
    expect(versions).toMatchObject({ every: 'daily (UTC midnight)', about: expect.stringContaining('npm') });
    expect(Date.parse(versions.next)).toBeGreaterThan(Date.now());
    expect(res.body.inspectionQueue).toEqual([
      { slug: 'acme', version: '1.1.0', reason: 'new version 1.1.0', queuedAt: expect.any(String) },
    ]);
  });

  it('runs a job now for an admin, with an audit row naming who asked', async () => {
    // Started, as main.ts starts it: on Postgres the queue's worker here takes the run.
    await t.app.jobs.start();
    const { browser } = await signedInPerson(t, 'Jobs admin', [{ role: 'admin' }]);
    const res = await browser.post('/api/jobs/publish-posts/run');
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ success: true, started: 'publish-posts' });
    // The run asked for (its slot says so), not one the schedule made meanwhile.
    const asked = async () => (await listRuns(t.db, { job: 'publish-posts' })).find((r) => r.slot.startsWith('now:'));
    await vi.waitFor(async () => expect(await asked()).toMatchObject({ status: 'ok' }), {
      timeout: 20_000,
      interval: 100,
    });
    const run = await asked();
    expect(run!.trigger).toMatch(/^person:\d+ Jobs admin$/);
    const [row] = await auditRows('job.run');
    expect(row).toMatchObject({ target: 'job publish-posts', summary: 'run now', outcome: 'ok' });
    expect(row!.actor).toMatch(/Jobs admin$/);
    const listed = await browser.get('/api/jobs');
    expect(listed.body.runs).toContainEqual(expect.objectContaining({ id: run!.id, status: 'ok' }));
    expect(listed.body.jobs[2].last).toBeDefined();
    expect((await browser.post('/api/jobs/nope/run')).status).toBe(404);
  });

  it('answers 409 to "run now" while a run of the job is going, and audits no run', async () => {
    const { browser } = await signedInPerson(t, 'Jobs busy editor', [{ role: 'editor' }]);
    // The runner's refusal (jobs/localRunner.ts): a run of the job is going.
    const runNow = vi.spyOn(t.app.jobs, 'runNow').mockRejectedValueOnce(new JobRunningError('inspect'));
    const before = (await auditRows('job.run')).length;
    const res = await browser.post('/api/jobs/inspect/run');
    runNow.mockRestore();
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, error: expect.stringContaining('The inspect job is running') });
    expect(await auditRows('job.run')).toHaveLength(before);
  });

  it('refuses a moderator and a viewer on every call, each refusal audited', async () => {
    for (const role of ['moderator', 'viewer'] as const) {
      const { browser } = await signedInPerson(t, `Jobs ${role}`, [{ role }]);
      expect((await browser.get('/api/jobs')).status).toBe(403);
      expect((await browser.post('/api/jobs/versions/run')).status).toBe(403);
    }
    const refused = await t.db
      .selectFrom('console_audit')
      .selectAll()
      .where('outcome', '=', 'refused')
      .where('action', 'in', ['jobs.read', 'job.run'])
      .execute();
    expect(refused).toHaveLength(4);
    expect(refused[0]!.summary).toBe('refused: needs edit or admin');
    expect(await listRuns(t.db, { job: 'versions' })).toEqual([]);
  });
});
