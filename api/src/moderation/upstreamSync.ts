/**
 * The upstream sync as the site runs it (the job, `pnpm registry sync`, the console's "Sync now"): registry/sync.ts
 * with the settings' limits, and a new server of an upstream whose policy is `list` approved here as a moderator's
 * approval would be (the sync sits on a floor below the approval, so it is handed over).
 */
import type { RegistrySyncConfig } from '../config';
import type { DB } from '../db/connection';
import { SYNC_SHARE, syncUpstreams, type SyncResult } from '../registry/sync';
import { approveSubmission } from './service';

/** Syncs every followed upstream (or the one named by id or address), paced so that it never takes the site from its
 *  visitors (SYNC_SHARE); `signal` stops it between pages. */
export function syncFollowed(
  db: DB,
  settings: RegistrySyncConfig,
  only?: string,
  signal?: AbortSignal,
): Promise<SyncResult[]> {
  return syncUpstreams(
    db,
    {
      limits: { timeoutMs: settings.timeoutMs, maxBytes: settings.maxBytes, allow: settings.allow },
      listNew: (trx, submissionId) => approveSubmission(trx, submissionId),
      signal,
      share: SYNC_SHARE,
    },
    only,
  );
}
