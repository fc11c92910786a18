/**
 * The remote servers' inspections in the database (`pnpm registry inspect --remotes` and the site's `inspect-remotes`
 * job, the one job that inspects remotes): each remote server asked over its transport (remote.ts), written as a
 * package's inspection is (inspect.ts writeInspection).
 */
import type { ServerJson } from '@aitools/contracts/mcp';
import type { DB } from '../db/connection';
import type { GuardOptions } from '../http/ssrfGuard';
import { inspectionLine, writeInspection } from './inspect';
import { inspectRemote, isRemoteServer } from './remote';

/** The servers whose remote is what we inspect: a record with remotes and no npm package to run. */
export async function remoteServers(db: DB, slugs?: string[]): Promise<{ slug: string; doc: ServerJson }[]> {
  let q = db.selectFrom('mcp_servers').select(['tool_slug', 'doc']).orderBy('tool_slug');
  if (slugs) q = q.where('tool_slug', 'in', slugs.length ? slugs : ['']);
  return (await q.execute())
    .map((r) => ({ slug: r.tool_slug, doc: JSON.parse(r.doc) as ServerJson }))
    .filter((r) => isRemoteServer(r.doc));
}

/** Inspects each remote server (one at a time) and writes its inspection as a package's is written (inspect.ts
 *  writeInspection: a failure keeps the earlier inspection of the same version). Returns a line per server. */
export async function inspectRemotes(
  db: DB,
  guard: GuardOptions,
  opts: {
    slugs?: string[];
    timeoutMs?: number;
    now?: () => Date;
    signal?: AbortSignal;
    /** Who the audit row of a changed inspection names (`job:inspect-remotes`, `cli:<user>`). */
    actor?: string;
  } = {},
): Promise<string[]> {
  const lines: string[] = [];
  for (const { slug, doc } of await remoteServers(db, opts.slugs)) {
    opts.signal?.throwIfAborted();
    const now = opts.now?.() ?? new Date();
    const fresh = await inspectRemote(doc, guard, opts.timeoutMs ?? guard.timeoutMs, now.toISOString().slice(0, 10));
    if (!fresh) continue;
    await writeInspection(db, slug, fresh, { actor: opts.actor, now });
    lines.push(inspectionLine(slug, fresh));
  }
  return lines;
}
