/**
 * The release actions every caller shares: the release API (a token), the CLI (an operating-system user) and the
 * console (a person) call these, which change the release state through store.ts, ask the shared caches to purge
 * what changed (releases/releaseChange.ts) and write the audit trail (content/audit.ts) with the caller's reason. One
 * code path, so what one caller can do, the others can, alike.
 */
import type { DB } from '../db/connection';
import { writeAudit } from '../content/audit';
import { abort, activateStored, promote, rollback, type ActivateOptions, type StoreLocation } from './store';
import { purgingChange } from './releaseChange';

export interface Caller {
  /** Where the audit row goes. */
  db: DB;
  /** The audit trail's actor: `token:<label>`, `cli:<user>` or `person:<id> <name>`. */
  actor: string;
  /** The release history's `by`. */
  by: string;
  address?: string;
  /** Why: into the history and the audit row. */
  reason?: string;
}

const withReason = (summary: string, reason?: string) => (reason ? `${summary}; reason: ${reason}` : summary);

export async function auditRelease(caller: Caller, action: string, remote: string, summary: string): Promise<void> {
  await writeAudit(caller.db, {
    actor: caller.actor,
    action: `release.${action}`,
    target: remote,
    summary: withReason(summary, caller.reason),
    address: caller.address,
  });
}

/** Makes a stored release active, or its canary with `canary` percent. */
export async function activateRelease(
  at: StoreLocation,
  remote: string,
  id: string,
  opts: Pick<ActivateOptions, 'canary' | 'force' | 'log'>,
  caller: Caller,
) {
  const r = await purgingChange(caller.db, remote, () =>
    activateStored(remote, id, { ...at, ...opts, by: caller.by, note: caller.reason }),
  );
  await auditRelease(
    caller,
    r.canary !== undefined ? 'canary' : 'activate',
    remote,
    r.canary !== undefined ? `${r.from ?? '-'} + canary ${r.to} at ${r.canary}%` : `${r.from ?? '-'} -> ${r.to}`,
  );
  return r;
}

export async function promoteCanary(at: StoreLocation, remote: string, caller: Caller, log?: (l: string) => void) {
  const r = await purgingChange(caller.db, remote, () =>
    promote(remote, { ...at, by: caller.by, note: caller.reason, log }),
  );
  await auditRelease(caller, 'promote', remote, `${r.from} -> ${r.to}`);
  return r;
}

export async function abortCanary(at: StoreLocation, remote: string, caller: Caller) {
  const r = await purgingChange(caller.db, remote, () => abort(remote, { ...at, by: caller.by, note: caller.reason }));
  await auditRelease(caller, 'abort', remote, `canary ${r.aborted} ended; active ${r.active}`);
  return r;
}

export async function rollBackRelease(
  at: StoreLocation,
  remote: string,
  opts: { to?: string; force?: boolean },
  caller: Caller,
) {
  const r = await purgingChange(caller.db, remote, () =>
    rollback(remote, { ...at, ...opts, by: caller.by, note: caller.reason }),
  );
  await auditRelease(caller, 'rollback', remote, `${r.from} -> ${r.to}`);
  return r;
}
