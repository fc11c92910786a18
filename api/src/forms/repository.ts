import type { DB } from '../db/connection';
import type { ContactMessage, EarlyAccessRecord, Submission } from '../contracts/forms';

export type SubmissionStatus = 'pending' | 'approved' | 'rejected';

export interface SubmissionRow {
  id: number;
  name: string;
  email: string;
  website_url: string;
  tool_type: 'ai-tool' | 'mcp-server';
  description: string | null;
  message: string | null;
  status: SubmissionStatus;
  created_at: string;
  reviewed_at: string | null;
  tool_slug: string | null;
}

export interface ContactRow extends ContactMessage {
  id: number;
  created_at: string;
}

export interface EarlyAccessRow extends EarlyAccessRecord {
  id: number;
}

/** Each insert is one statement, so it is committed (synchronous = FULL) before the caller answers. */
export function insertSubmission(db: DB, s: Submission): number {
  const r = db
    .prepare(
      `INSERT INTO submissions (name, email, website_url, tool_type, description, message, status)
       VALUES (@name, @email, @website_url, @tool_type, @description, @message, 'pending')`,
    )
    .run(s);
  return Number(r.lastInsertRowid);
}

export function insertContactMessage(db: DB, m: ContactMessage): number {
  const r = db.prepare('INSERT INTO contact_messages (name, email, subject, message) VALUES (@name, @email, @subject, @message)').run(m);
  return Number(r.lastInsertRowid);
}

/** Idempotent per email (case-insensitive): the subscriber's row id, and whether this call added it. */
export function insertEarlyAccess(db: DB, rec: EarlyAccessRecord): { id: number; created: boolean } {
  const r = db
    .prepare('INSERT INTO early_access (email, type, source, timestamp) VALUES (@email, @type, @source, @timestamp) ON CONFLICT(email) DO NOTHING')
    .run(rec);
  if (r.changes === 1) return { id: Number(r.lastInsertRowid), created: true };
  const existing = db.prepare('SELECT id FROM early_access WHERE email = ?').get(rec.email) as { id: number };
  return { id: existing.id, created: false };
}

export function listSubmissions(db: DB, status?: SubmissionStatus): SubmissionRow[] {
  return (
    status
      ? db.prepare('SELECT * FROM submissions WHERE status = ? ORDER BY id').all(status)
      : db.prepare('SELECT * FROM submissions ORDER BY id').all()
  ) as SubmissionRow[];
}

export function getSubmission(db: DB, id: number): SubmissionRow | null {
  return (db.prepare('SELECT * FROM submissions WHERE id = ?').get(id) as SubmissionRow | undefined) ?? null;
}

export function markSubmissionReviewed(db: DB, id: number, status: Exclude<SubmissionStatus, 'pending'>, toolSlug: string | null, reviewedAt: string): void {
  db.prepare('UPDATE submissions SET status = ?, tool_slug = ?, reviewed_at = ? WHERE id = ?').run(status, toolSlug, reviewedAt, id);
}

export function listContactMessages(db: DB): ContactRow[] {
  return db.prepare('SELECT id, name, email, subject, message, created_at FROM contact_messages ORDER BY id').all() as ContactRow[];
}

export function listEarlyAccess(db: DB): EarlyAccessRow[] {
  return db.prepare('SELECT id, email, timestamp, type, source FROM early_access ORDER BY id').all() as EarlyAccessRow[];
}
