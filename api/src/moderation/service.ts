/**
 * Operator moderation of what visitors sent (kept apart from the CLI so it can be tested): review tool
 * submissions, and export contact messages and early-access subscribers.
 */
import { inTransaction, type DB } from '../db/connection';
import { escapeForDisplay } from '@aitools/contracts/text';
import { upsertTool, type ToolInput } from '../tools/repository';
import { attachSubmittedServer, getSubmissionServer } from '../registry/repository';
import { listingSchema } from '@aitools/contracts/forms';
import { approvalChoicesSchema, type ApprovalChoices } from '@aitools/contracts/toolEdit';
import { serverJsonSchema } from '@aitools/contracts/mcp';
import { issueLines } from '@aitools/contracts/zod';
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

/** The name's slug, or with -2, -3 ... appended when a tool has it or had it (an old address that redirects). */
async function uniqueToolSlug(db: DB, name: string): Promise<string> {
  const base = slugify(name);
  const taken = new Set([
    ...(await db.selectFrom('tools').select('slug').where('slug', 'like', `${base}%`).execute()).map((r) => r.slug),
    ...(
      await db.selectFrom('tool_slug_aliases').select('old_slug').where('old_slug', 'like', `${base}%`).execute()
    ).map((r) => r.old_slug),
  ]);
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  return slug;
}

async function pendingSubmission(db: DB, id: number): Promise<SubmissionRow> {
  const row = await getSubmission(db, id);
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

/**
 * What approval publishes goes through the same field rules as the form and the import once more (rows stored
 * before a rule existed, or written by other means, included), and the moderator's category and pricing through
 * the tool's own: a refusal names each field and its reason. Returns the listing and the choices as the rules leave
 * them (normalised and trimmed: what is published is what the rules read, not the row as it was stored).
 */
async function checkPublishable(db: DB, s: SubmissionRow, opts: ApproveOptions) {
  const reasons: string[] = [];
  const listing = listingSchema.safeParse({ name: s.name, website_url: s.website_url, description: s.description });
  if (!listing.success) reasons.push(...issueLines(listing.error));
  const choices = approvalChoicesSchema.safeParse({ category: opts.category, pricing: opts.pricing });
  if (!choices.success) reasons.push(...issueLines(choices.error));
  const doc = await getSubmissionServer(db, s.id);
  if (doc) {
    const server = serverJsonSchema.safeParse(doc);
    if (!server.success) reasons.push(...issueLines(server.error).map((line) => `server.json ${line}`));
  }
  if (reasons.length)
    throw new ModerationError(
      `Submission ${s.id} cannot be published:\n  ${reasons.map((r) => escapeForDisplay(r)).join('\n  ')}`,
    );
  return { listing: listing.data!, choices: choices.data! as ApprovalChoices };
}

/** Publishes a pending submission as a directory tool and marks it approved, in one transaction. */
export function approveSubmission(
  db: DB,
  id: number,
  opts: ApproveOptions = {},
): Promise<{ slug: string; tool: ToolInput }> {
  return inTransaction(db, async (trx) => {
    const s = await pendingSubmission(trx, id);
    const { listing, choices } = await checkPublishable(trx, s, opts);
    const today = opts.today ?? new Date().toISOString().slice(0, 10);
    const isMcp = s.tool_type === 'mcp-server';
    const slug = await uniqueToolSlug(trx, listing.name);
    const tool: ToolInput = {
      slug,
      name: listing.name,
      description: listing.description ?? '',
      fullDescription: listing.description ?? '',
      category: choices.category ?? (isMcp ? 'MCP Servers' : 'AI Assistants'),
      pricing: choices.pricing ?? 'Free',
      tags: isMcp ? ['mcp', 'mcp-server'] : ['ai-tool'],
      website: listing.website_url,
      lastUpdated: today,
      createdAt: today,
      // A visitor's submission is by definition not the protocol's own (Official) server.
      ...(isMcp ? { mcpBadge: 'Community' as const } : {}),
    };
    await upsertTool(trx, tool);
    await attachSubmittedServer(trx, id, slug);
    await markSubmissionReviewed(trx, id, 'approved', slug, new Date().toISOString());
    return { slug, tool };
  });
}

export function rejectSubmission(db: DB, id: number): Promise<void> {
  return inTransaction(db, async (trx) => {
    await pendingSubmission(trx, id);
    await markSubmissionReviewed(trx, id, 'rejected', null, new Date().toISOString());
  });
}

/**
 * A formula start at the start of the field, of a line, or after a , ; or tab separator: = + - @, tab, CR, and
 * their look-alikes that spreadsheets read as the same sign (fullwidth ＝ ＋ － ＠, small ﹦ ﹢ ﹣ ﹫, the minus sign −).
 */
const FORMULA_START = /(?<=^|[\r\n,;\t])(?=[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B\u2212])/g;

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
  return (
    [columns, ...rows.map((r) => columns.map((c) => r[c]))].map((cells) => cells.map(csvField).join(',')).join('\r\n') +
    '\r\n'
  );
}

export async function contactsCsv(db: DB): Promise<string> {
  return toCsv(
    ['id', 'created_at', 'name', 'email', 'subject', 'message'],
    (await listContactMessages(db)) as unknown as Record<string, unknown>[],
  );
}

export async function subscribersCsv(db: DB): Promise<string> {
  return toCsv(
    ['id', 'timestamp', 'email', 'type', 'source'],
    (await listEarlyAccess(db)) as unknown as Record<string, unknown>[],
  );
}

export { listContactMessages, listEarlyAccess };
