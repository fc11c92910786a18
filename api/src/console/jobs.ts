/**
 * The Registry screen's api (docs/operations.md, Jobs): each job's last and next run, what it changed, failures with
 * their reasons, the servers waiting for an inspection, and "run now". Editors and admins only, asked on every call;
 * a run asked for is a row of the audit trail.
 */
import { Router } from 'express';
import { success } from '@aitools/contracts/answers';
import type { DB } from '../db/connection';
import { writeAudit } from '../content/audit';
import type { JobRunner } from '../jobs/runner';
import { JobRunningError } from '../jobs/job';
import { listRuns } from '../jobs/runs';
import { queuedInspections } from '../jobs/inspectJob';
import { allow, auditEntry } from './guard';
import { ConsoleError } from './people';

/** How many recent runs the screen lists. */
export const RECENT_RUNS = 50;

export function jobsRouter(db: DB, jobs: JobRunner): Router {
  const router = Router();

  router.get('/jobs', allow(db, ['edit', 'admin'], 'jobs.read'), async (_req, res) => {
    const [status, runs, queued] = await Promise.all([
      jobs.status(),
      listRuns(db, { limit: RECENT_RUNS }),
      queuedInspections(db),
    ]);
    res.json(
      success({
        jobs: status,
        runs,
        inspectionQueue: queued.map((q) => ({
          slug: q.tool_slug,
          version: q.version,
          reason: q.reason,
          queuedAt: q.queued_at,
        })),
      }),
    );
  });

  router.post('/jobs/:name/run', allow(db, ['edit', 'admin'], 'job.run'), async (req, res) => {
    const name = String(req.params.name);
    if (!jobs.jobs.some((j) => j.name === name)) throw new ConsoleError(404, `No job named ${name}.`);
    const entry = auditEntry(req, res, 'job.run', `job ${name}`, 'run now');
    // Audited once the run is asked: one refused while a run of the job is going (409) leaves no row.
    try {
      await jobs.runNow(name, entry.actor);
    } catch (err) {
      throw err instanceof JobRunningError ? new ConsoleError(409, err.message) : err;
    }
    await writeAudit(db, entry);
    res.status(202).json(success({ started: name }));
  });

  return router;
}
