/**
 * Operator moderation of what visitors sent (kept apart from the CLI so it can be tested): review tool
 * submissions, and export contact messages and early-access subscribers.
 */
import type { DB } from '../db/connection';
import { escapeForDisplay } from '../contracts/text';
import { upsertTool, type ToolInput } from '../tools/repository';
import { attachSubmittedServer } from '../registry/repository';
import {
  getSubmission,
  listContactMessages,
  listEarlyAccess,
  listSubmissions,
  markSubmissionReviewed,
  type SubmissionRow,
  type SubmissionStatus,
} from '../forms/repository';

export class ModerationError extends Error {}

export const SUBMISSION_STATUSES: SubmissionStatus[] = ['pending', 'approved', 'rejected'];

export { listSubmissions };

/** "Acme AI: Pro!" -> "acme-ai-pro"; accents folded; never empty. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'tool';
}

/** The name's slug, or with -2, -3 ... appended when a tool already has it. */
function uniqueToolSlug(db: DB, name: string): string {
  const base = slugify(name);
  let slug = base;
  const taken = db.prepare('SELECT 1 FROM tools WHERE slug = ?');
  for (let n = 2; taken.get(slug); n++) slug = `${base}-${n}`;
  return slug;
}

function pendingSubmission(db: DB, id: number): SubmissionRow {
  const row = getSubmission(db, id);
  if (!row) throw new ModerationError(`No submission with id ${id}.`);
  if (row.status !== 'pending') throw new ModerationError(`Submission ${id} is already ${row.status}.`);
  return row;
}

export interface ApproveOptions {
  category?: string;
  pricing?: string;
  /** ISO date of the approval (tests fix it); today by default. */
  today?: string;
}

/** Publishes a pending submission as a directory tool and marks it approved, in one transaction. */
export function approveSubmission(db: DB, id: number, opts: ApproveOptions = {}): { slug: string; tool: ToolInput } {
  return db.transaction(() => {
    const s = pendingSubmission(db, id);
    const today = opts.today ?? new Date().toISOString().slice(0, 10);
    const isMcp = s.tool_type === 'mcp-server';
    const slug = uniqueToolSlug(db, s.name);
    const tool: ToolInput = {
      slug,
      name: s.name,
      description: s.description ?? '',
      fullDescription: s.description ?? '',
      category: opts.category ?? (isMcp ? 'MCP Servers' : 'AI Assistants'),
      pricing: opts.pricing ?? 'Free',
      tags: isMcp ? ['mcp', 'mcp-server'] : ['ai-tool'],
      website: s.website_url,
      lastUpdated: today,
      createdAt: today,
      // A visitor's submission is by definition not the protocol's own (Official) server.
      ...(isMcp ? { mcpBadge: 'Community' as const } : {}),
    };
    upsertTool(db, tool);
    attachSubmittedServer(db, id, slug);
    markSubmissionReviewed(db, id, 'approved', slug, new Date().toISOString());
    return { slug, tool };
  })();
}

export function rejectSubmission(db: DB, id: number): void {
  db.transaction(() => {
    pendingSubmission(db, id);
    markSubmissionReviewed(db, id, 'rejected', null, new Date().toISOString());
  })();
}

/** A formula start (= + - @, tab, CR) at the start of the field, of a line, or after a , ; or tab separator. */
const FORMULA_START = /(?<=^|[\r\n,;\t])(?=[=+\-@\t\r])/g;

/**
 * One CSV field (RFC 4180): quoted when it holds a separator (comma, semicolon, tab), a quote or a line break,
 * quotes doubled. Every formula start gets a ' in front, so no spreadsheet (whatever its list separator, and
 * whether it splits the field's lines) runs a visitor's text as a formula. Terminal escapes are shown, not sent.
 */
export function csvField(value: unknown): string {
  const s = escapeForDisplay(value == null ? '' : String(value), true).replace(FORMULA_START, "'");
  return /[",;\t\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(columns: string[], rows: Record<string, unknown>[]): string {
  return [columns, ...rows.map((r) => columns.map((c) => r[c]))].map((cells) => cells.map(csvField).join(',')).join('\r\n') + '\r\n';
}

export function contactsCsv(db: DB): string {
  return toCsv(['id', 'created_at', 'name', 'email', 'subject', 'message'], listContactMessages(db) as unknown as Record<string, unknown>[]);
}

export function subscribersCsv(db: DB): string {
  return toCsv(['id', 'timestamp', 'email', 'type', 'source'], listEarlyAccess(db) as unknown as Record<string, unknown>[]);
}

export { listContactMessages, listEarlyAccess };
