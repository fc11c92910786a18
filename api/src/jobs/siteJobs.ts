/**
 * The site's jobs: the one list every scheduled job is registered in (docs/operations.md, Jobs). A feature defines
 * its job (a `Job`, job.ts) and adds it here; the runner (runner.ts) schedules the list on either database, and the
 * console's Registry screen and `pnpm registry run <job>` read it.
 */
import type { Logger } from 'pino';
import type { ServerConfig } from '../config';
import type { Job } from './job';
import { scheduleProblem } from './schedule';
import { versionsJob, versionsSettings } from './versionsJob';
import { inspectAndWrite } from '../registry/inspect';
import { inspectJob } from './inspectJob';
import { postsJob } from './postsJob';
import { syncJob } from './syncJob';
import { healthJob, remoteInspectJob } from './remoteJobs';

export interface SiteJobDeps {
  config: ServerConfig;
  logger: Logger;
}

/** Every job of the site, each with the schedule its JOB_<NAME>_EVERY setting gives it, if any. */
export function siteJobs(deps: SiteJobDeps): Job[] {
  const jobs: Job[] = [
    // Register a job here: `myJob(deps)`, a function returning a Job (its own file in this folder).
    versionsJob(versionsSettings(deps.config)),
    // Unattended, a package runs only in the sandbox: inspectAndWrite refuses where bubblewrap cannot run (docs/mcp.md).
    // Remote servers are the inspect-remotes job's alone (packagesOnly).
    inspectJob(async (db, slugs, log, actor) => {
      await inspectAndWrite(db, slugs, {
        settings: deps.config.inspection,
        outbound: deps.config.outbound,
        log,
        actor,
        packagesOnly: true,
      });
    }),
    postsJob(deps.config.postSchedulerMs),
    syncJob(deps),
    healthJob(deps),
    remoteInspectJob(deps),
  ];
  return jobs.map((job) => withSchedule(job, deps.config.jobs.every));
}

export const everyVariable = (name: string) => `JOB_${name.toUpperCase().replace(/-/g, '_')}_EVERY`;

/** The job with the operator's schedule for it, refused at start when it is not one. */
export function withSchedule(job: Job, every: Record<string, number | string>): Job {
  const chosen = every[job.name];
  if (chosen === undefined) return job;
  const problem = scheduleProblem(chosen);
  if (problem) throw new Error(`${everyVariable(job.name)}: ${problem}`);
  return { ...job, every: chosen };
}
