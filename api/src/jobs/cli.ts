/**
 * `pnpm registry` (package.json points here): the jobs' commands, and every other registry command handed to
 * registry/cli.ts.
 *   pnpm registry jobs            (each job's schedule, last run and next run)
 *   pnpm registry run <job>       (runs it now in this process, recorded and audited like the console's "Run now")
 */
import { loadConfig } from '../config';
import { openDatabase } from '../db/connection';
import { cliActor, writeAudit } from '../content/audit';
import { createLogger } from '../middleware/logger';
import { runAttempt } from './execute';
import { createJobRunner } from './runner';
import { siteJobs } from './siteJobs';

const USAGE = `Usage:
  pnpm registry jobs
  pnpm registry run <job>`;

async function main([command, name]: string[]): Promise<number> {
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn', 'pretty');
  const jobs = siteJobs({ config, logger });
  if (command === 'run' && !jobs.some((j) => j.name === name)) {
    console.error(`${name ? `No job named ${name}. ` : ''}Jobs: ${jobs.map((j) => j.name).join(', ')}\n${USAGE}`);
    return 2;
  }
  const db = await openDatabase(config.database);
  try {
    if (command === 'jobs') {
      for (const s of await createJobRunner({ db, jobs, logger }).status()) {
        const last = s.last
          ? `last ${s.last.startedAt} ${s.last.status}${s.last.reason ? `: ${s.last.reason}` : ''}`
          : 'never run';
        console.log(`${s.name} (${s.every}): ${last}; next ${s.next}`);
      }
      return 0;
    }
    const job = jobs.find((j) => j.name === name)!;
    const actor = cliActor();
    await writeAudit(db, { actor, action: 'job.run', target: `job ${job.name}`, summary: 'run now' });
    const result = await runAttempt(
      job,
      { slot: `now:${new Date().toISOString()}`, attempt: 1, trigger: actor },
      { db, logger },
    );
    console.log(result.ok ? `${job.name}: ${result.summary}` : `${job.name} failed: ${result.reason}`);
    return result.ok ? 0 : 1;
  } finally {
    await db.destroy();
  }
}

const [command] = process.argv.slice(2);
if (command === 'run' || command === 'jobs') {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  }
} else await import('../moderation/registryCli');
