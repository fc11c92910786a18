/**
 * The audit trail: who changed what, when (UTC) and from where, and every refusal for lack of a role. Rows are only
 * added: no call edits or deletes one, and the database refuses it too (db/migrations.ts). A row never holds a
 * token, a session id or a passkey: callers pass short summaries, and `summary` is cut to a line.
 */
import { userInfo } from 'node:os';
import { containsText, type DB } from '../db/connection';

export interface AuditEntry {
  /** `person:<id> <name>`, `token:<label>` or `cli:<os user>`. */
  actor: string;
  action: string;
  target: string;
  /** A short before/after summary. */
  summary?: string;
  address?: string;
  outcome?: 'ok' | 'refused';
}

export interface AuditRow extends Required<AuditEntry> {
  id: number;
  at: string;
}

/** The most a row's summary holds (longer ones are cut). */
export const AUDIT_SUMMARY_MAX = 500;

/** "a, b, c and 12 more": the names, as many as fit in `room` characters, and how many did not. */
export function namesWithin(names: readonly string[], room: number): string {
  let shown = names.length;
  const text = (n: number) =>
    names.slice(0, n).join(', ') + (n < names.length ? `${n ? ' and ' : ''}${names.length - n} more` : '');
  while (shown > 0 && text(shown).length > room) shown--;
  return text(shown);
}

export const personActor = (p: { id: number; name: string }) => `person:${p.id} ${p.name}`;
export const tokenActor = (label: string) => `token:${label}`;

/** The operating-system user running a command (RELEASE_ACTOR when set, as the release history names it). */
export function cliActor(): string {
  let user = process.env.RELEASE_ACTOR;
  if (!user)
    try {
      user = userInfo().username;
    } catch {
      user = 'unknown';
    }
  return `cli:${user}`;
}

/** Control characters become spaces and the text is cut: a row reads as one line wherever it is shown. */
const oneLine = (text: string, max: number) => {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
};

export async function writeAudit(db: DB, entry: AuditEntry, now = new Date()): Promise<void> {
  await db
    .insertInto('console_audit')
    .values({
      at: now.toISOString(),
      actor: oneLine(entry.actor, 200),
      action: oneLine(entry.action, 64),
      target: oneLine(entry.target, 200),
      summary: oneLine(entry.summary ?? '', AUDIT_SUMMARY_MAX),
      address: oneLine(entry.address ?? '', 64),
      outcome: entry.outcome ?? 'ok',
    })
    .execute();
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  target?: string;
  /** Rows with a smaller id (the next page). */
  before?: number;
  limit?: number;
}

/** Newest first, filtered by substrings of actor and target and an exact action. */
export async function listAudit(db: DB, filter: AuditFilter = {}): Promise<{ entries: AuditRow[]; next?: number }> {
  const limit = Math.min(Math.max(filter.limit ?? 100, 1), 500);
  let q = db
    .selectFrom('console_audit')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(limit + 1);
  if (filter.actor) q = q.where(containsText('actor', filter.actor));
  if (filter.target) q = q.where(containsText('target', filter.target));
  if (filter.action) q = q.where('action', '=', filter.action);
  if (filter.before) q = q.where('id', '<', filter.before);
  const rows = (await q.execute()) as AuditRow[];
  const entries = rows.slice(0, limit).map((r) => ({ ...r, id: Number(r.id) }));
  return rows.length > limit ? { entries, next: entries[entries.length - 1]!.id } : { entries };
}
