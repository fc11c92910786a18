import { sql, type Selectable } from 'kysely';
import type { DB } from '../db/connection';
import type { SubmissionsTable } from '../db/schema';
import type { ContactMessage, EarlyAccessRecord, Submission } from '@aitools/contracts/forms';

export type SubmissionRow = Selectable<SubmissionsTable>;
export type SubmissionStatus = SubmissionRow['status'];

export interface ContactRow extends ContactMessage {
  id: number;
  created_at: string;
}

export interface EarlyAccessRow extends EarlyAccessRecord {
  id: number;
}

/** Each insert is one statement, committed (on disk, on either database) before the caller answers. */
export async function insertSubmission(db: DB, s: Submission): Promise<number> {
  const { id } = await db
    .insertInto('submissions')
    .values({
      name: s.name,
      email: s.email,
      website_url: s.website_url,
      tool_type: s.tool_type,
      description: s.description ?? null,
      message: s.message ?? null,
      status: 'pending',
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function insertContactMessage(db: DB, m: ContactMessage): Promise<number> {
  const { id } = await db
    .insertInto('contact_messages')
    .values({
      name: m.name,
      email: m.email,
      subject: m.subject,
      message: m.message,
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Idempotent per email (case-insensitive): the subscriber's row id, and whether this call added it. */
export async function insertEarlyAccess(db: DB, rec: EarlyAccessRecord): Promise<{ id: number; created: boolean }> {
  const added = await db
    .insertInto('early_access')
    .values({ email: rec.email, type: rec.type, source: rec.source, timestamp: rec.timestamp })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  if (added) return { id: added.id, created: true };
  const existing = await db
    .selectFrom('early_access')
    .select('id')
    // The database's own lower() on both sides, as its unique index has it (SQLite's folds ASCII letters only).
    .where(sql`lower(email)`, '=', sql<string>`lower(${rec.email})`)
    .executeTakeFirstOrThrow();
  return { id: existing.id, created: false };
}

export function listSubmissions(db: DB, status?: SubmissionStatus): Promise<SubmissionRow[]> {
  let q = db.selectFrom('submissions').selectAll().orderBy('id');
  if (status) q = q.where('status', '=', status);
  return q.execute();
}

export async function getSubmission(db: DB, id: number): Promise<SubmissionRow | null> {
  return (await db.selectFrom('submissions').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function markSubmissionReviewed(
  db: DB,
  id: number,
  status: Exclude<SubmissionStatus, 'pending'>,
  toolSlug: string | null,
  reviewedAt: string,
): Promise<void> {
  await db
    .updateTable('submissions')
    .set({ status, tool_slug: toolSlug, reviewed_at: reviewedAt })
    .where('id', '=', id)
    .execute();
}

export function listContactMessages(db: DB): Promise<ContactRow[]> {
  return db
    .selectFrom('contact_messages')
    .select(['id', 'name', 'email', 'subject', 'message', 'created_at'])
    .orderBy('id')
    .execute() as Promise<ContactRow[]>;
}

export function listEarlyAccess(db: DB): Promise<EarlyAccessRow[]> {
  return db
    .selectFrom('early_access')
    .select(['id', 'email', 'timestamp', 'type', 'source'])
    .orderBy('id')
    .execute() as Promise<EarlyAccessRow[]>;
}
