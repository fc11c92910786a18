/**
 * The remote servers' jobs (docs/operations.md, Jobs): `health` checks each remote server (registry/health.ts) and
 * `inspect-remotes` asks each remote-only server what it offers (registry/remoteInspections.ts), both through the SSRF guard
 * with the operator's OUTBOUND_* settings. Their periods: JOB_HEALTH_EVERY, JOB_INSPECT_REMOTES_EVERY. `inspect-remotes`
 * is the one job that inspects remote servers: the `inspect` job (the queue of packages) leaves them to it.
 */
import type { ServerConfig } from '../config';
import { runHealthChecks } from '../registry/health';
import { inspectRemotes } from '../registry/remoteInspections';
import type { Job, JobContext } from './job';

/** Counts each line ("slug: what happened") under its outcome, the line as its detail. */
function countLines(ctx: JobContext, lines: string[], outcome: (line: string) => string): void {
  for (const line of lines) ctx.changed(outcome(line), 1, line);
}

export function healthJob({ config }: { config: ServerConfig }): Job {
  return {
    name: 'health',
    every: 60 * 60_000,
    about: 'Checks each remote MCP server (initialize and tools/list) and keeps the result for its page',
    async run(ctx) {
      const lines = await runHealthChecks(ctx.db, config.outbound, { signal: ctx.signal });
      countLines(ctx, lines, (line) => line.split(': ')[1]!.split(' ')[0]!);
    },
  };
}

export function remoteInspectJob({ config }: { config: ServerConfig }): Job {
  return {
    name: 'inspect-remotes',
    every: 24 * 60 * 60_000,
    about: 'Asks each remote MCP server what it offers, over its transport, for its page and checks',
    async run(ctx) {
      const lines = await inspectRemotes(ctx.db, config.outbound, { signal: ctx.signal, actor: ctx.actor });
      countLines(ctx, lines, (line) => (line.includes(': not inspected: ') ? 'not inspected' : 'inspected'));
    },
  };
}
