/**
 * An editor's change as one write: its version (revisions.ts), the record itself, the data version when the public
 * sees the change (dataVersion.ts, with the purge it queues) and its row of the audit trail (audit.ts), in one
 * transaction, so none is kept without the others (docs/operations.md, Editing content). Every kind an editor saves
 * (a post, a tool) goes through here.
 */
import type { DB } from '../db/connection';
import { writeAudit, type AuditEntry } from './audit';
import { bumpDataVersion } from './dataVersion';
import { saveRevision, type SaveRequest } from './revisions';

export interface EditedChange<T> extends SaveRequest<T> {
  /** Writes the record in the change's transaction; true when the public sees the change. */
  apply(trx: DB, version: number): Promise<boolean>;
  /** The change's audit row, once its version is known. */
  audit(version: number): AuditEntry;
}

/** Saves the change; returns its version, or refuses a stale base with StaleVersionError (409), writing nothing. */
export function saveChange<T>(db: DB, change: EditedChange<T>): Promise<number> {
  return saveRevision(db, change, async (trx, version) => {
    if (await change.apply(trx, version)) await bumpDataVersion(trx);
    await writeAudit(trx, change.audit(version));
  });
}
