/**
 * The remote servers' inspections in the database (`pnpm registry inspect --remotes` and the site's inspect job):
 * each remote-only server asked over its transport (remote.ts), written like a package's inspection.
 */
import type { ServerJson } from '@aitools/contracts/mcp';
import type { McpInspection } from '@aitools/contracts/inspection';
import { inTransaction, type DB } from '../db/connection';
import { upsertPublic } from '../content/dataVersion';
import { writeAudit } from '../content/audit';
import { recordSnapshot } from '../checks/history';
import type { GuardOptions } from '../http/ssrfGuard';
import { npmPackageOf } from './versions';
import { keptOrFresh } from './inspect';
import { inspectRemote } from './remote';

/** The servers whose remote is what we inspect: a record with remotes and no npm package to run. */
export async function remoteServers(db: DB, slugs?: string[]): Promise<{ slug: string; doc: ServerJson }[]> {
  let q = db.selectFrom('mcp_servers').select(['tool_slug', 'doc']).orderBy('tool_slug');
  if (slugs) q = q.where('tool_slug', 'in', slugs.length ? slugs : ['']);
  return (await q.execute())
    .map((r) => ({ slug: r.tool_slug, doc: JSON.parse(r.doc) as ServerJson }))
    .filter((r) => r.doc.remotes?.length && !npmPackageOf(r.doc));
}

/** Inspects each remote server (one at a time) and writes its inspection like a package's: the table the page reads
 *  (a public write: the data version moves and the shared caches follow) and a snapshot of its version for the
 *  checks. A failure keeps the earlier inspection of the same version (keptOrFresh). Returns a line per server. */
export async function inspectRemotes(
  db: DB,
  guard: GuardOptions,
  opts: {
    slugs?: string[];
    timeoutMs?: number;
    now?: () => Date;
    signal?: AbortSignal;
    /** Who the audit row of a changed inspection names (`job:inspect`, `cli:<user>`). */
    actor?: string;
  } = {},
): Promise<string[]> {
  const lines: string[] = [];
  for (const { slug, doc } of await remoteServers(db, opts.slugs)) {
    opts.signal?.throwIfAborted();
    const today = (opts.now?.() ?? new Date()).toISOString().slice(0, 10);
    const fresh = await inspectRemote(doc, guard, opts.timeoutMs ?? guard.timeoutMs, today);
    if (!fresh) continue;
    const line = `${slug}: ${fresh.status === 'inspected' ? `${fresh.tools.length} tools, ${fresh.prompts.length} prompts, ${fresh.resources.length} resources` : `not inspected: ${fresh.reason}`}`;
    await inTransaction(db, async (trx) => {
      const row = await trx
        .selectFrom('mcp_inspections')
        .select('doc')
        .where('tool_slug', '=', slug)
        .executeTakeFirst();
      const result = keptOrFresh(row ? (JSON.parse(row.doc) as McpInspection) : undefined, fresh);
      const changed = await upsertPublic(
        trx,
        'mcp_inspections',
        { tool_slug: slug, doc: JSON.stringify(result), source: 'run' },
        { key: 'tool_slug' },
      );
      await recordSnapshot(trx, slug, result);
      if (changed && opts.actor)
        await writeAudit(trx, {
          actor: opts.actor,
          action: 'inspection.update',
          target: `server ${slug}`,
          summary: line,
        });
    });
    lines.push(line);
  }
  return lines;
}
