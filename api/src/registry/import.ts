/**
 * `pnpm registry import <file-or-folder>`: reads official server.json documents (or a saved GET /v0.1/servers
 * answer), validates each with the one schema, and brings them in: a server we list is updated in place; a new one
 * becomes a pending submission (with its server.json attached) for the operator to approve with `pnpm moderate`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { inTransaction, type DB } from '../db/connection';
import { serverJsonSchema, type ServerJson } from '@aitools/contracts/mcp';
import { issueLines } from '@aitools/contracts/zod';
import { escapeForDisplay } from '@aitools/contracts/text';
import { toolPath } from '@aitools/platform/routes';
import { upsertServers } from './repository';

export interface ImportSummary {
  added: { name: string; submissionId: number }[];
  updated: { name: string; target: string }[];
  refused: { source: string; reasons: string[] }[];
}

interface Candidate {
  source: string;
  document: unknown;
}

function jsonFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) =>
      e.isDirectory() ? jsonFiles(join(path, e.name)) : e.name.endsWith('.json') ? [join(path, e.name)] : [],
    );
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A file is one server.json, or a list answer `{ servers: [{ server, _meta }] }` whose entries are each one. */
function readCandidates(path: string, root = path): { candidates: Candidate[]; refused: ImportSummary['refused'] } {
  const candidates: Candidate[] = [];
  const refused: ImportSummary['refused'] = [];
  for (const file of jsonFiles(path)) {
    const label = relative(root, file) || basename(file);
    let body: unknown;
    let text: string;
    try {
      // Refused, not read with U+FFFD in place of the bad bytes.
      text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
    } catch {
      refused.push({ source: label, reasons: ['not valid UTF-8 text'] });
      continue;
    }
    try {
      body = JSON.parse(text);
    } catch (err) {
      refused.push({ source: label, reasons: [`not JSON: ${err instanceof Error ? err.message : String(err)}`] });
      continue;
    }
    if (isRecord(body) && Array.isArray(body.servers)) {
      body.servers.forEach((entry, i) =>
        candidates.push({
          source: `${label} servers[${i}]`,
          document: isRecord(entry) && 'server' in entry ? entry.server : entry,
        }),
      );
    } else candidates.push({ source: label, document: body });
  }
  return { candidates, refused };
}

export async function pendingSubmissionFor(db: DB, name: string): Promise<number | null> {
  return (await pendingSubmissionsFor(db, [name])).get(name) ?? null;
}

/** The pending submissions of these servers, by name (one query). */
async function pendingSubmissionsFor(db: DB, names: string[]): Promise<Map<string, number>> {
  if (!names.length) return new Map();
  const rows = await db
    .selectFrom('submissions as s')
    .innerJoin('submission_servers as ss', 'ss.submission_id', 's.id')
    .select(['s.id', 'ss.name'])
    .where('s.status', '=', 'pending')
    .where('ss.name', 'in', names)
    .execute();
  return new Map(rows.map((r) => [r.name, r.id]));
}

/** What we have of these servers, by name (two queries): the records we list, and the pending submissions. */
export async function whatWeHave(db: DB, names: string[]) {
  const known = names.length
    ? await db.selectFrom('mcp_servers').select(['name', 'tool_slug', 'doc']).where('name', 'in', names).execute()
    : [];
  return { known: new Map(known.map((r) => [r.name, r])), pending: await pendingSubmissionsFor(db, names) };
}

/** The page a new server's submission links to: its website, its repository, else its entry in the official registry. */
function websiteOf(doc: ServerJson): string {
  return (
    doc.websiteUrl ??
    doc.repository?.url ??
    `https://registry.modelcontextprotocol.io/v0.1/servers/${encodeURIComponent(doc.name)}/versions/latest`
  );
}

function displayName(doc: ServerJson): string {
  return doc.title ?? doc.name.slice(doc.name.indexOf('/') + 1);
}

/** What bringing one valid document in did. */
export type BroughtIn =
  { outcome: 'updated' | 'unchanged'; target: string } | { outcome: 'added'; submissionId: number };

/**
 * Brings one valid document in, the one way `pnpm registry import` and the upstream sync (sync.ts) both do: a server
 * we list has its record updated in place, a pending submission of it gets the new document, and a new one becomes a
 * pending submission with `message` (where it came from) for the moderators.
 */
export async function bringIn(trx: DB, doc: ServerJson, message: string): Promise<BroughtIn> {
  const [brought] = await bringInAll(trx, [doc], () => message);
  return brought!;
}

/**
 * bringIn for documents of distinct names (a sync's page), in a few statements whatever their number: what we have
 * of them is read at once, changed records are written in one statement, new submissions in two.
 */
export async function bringInAll(
  trx: DB,
  docs: ServerJson[],
  messageOf: (doc: ServerJson) => string,
): Promise<BroughtIn[]> {
  const { known, pending } = await whatWeHave(
    trx,
    docs.map((d) => d.name),
  );
  const results: BroughtIn[] = [];
  const changed: { doc: ServerJson; toolSlug: string; source: 'import' }[] = [];
  const fresh: { doc: ServerJson; at: number }[] = [];
  for (const [at, doc] of docs.entries()) {
    const row = known.get(doc.name);
    const pendingId = pending.get(doc.name);
    if (row) {
      // What upsertServer's rule decides for an imported write: replaced when its document differs.
      const differs = row.doc !== JSON.stringify(doc);
      if (differs) changed.push({ doc, toolSlug: row.tool_slug, source: 'import' });
      results[at] = { outcome: differs ? 'updated' : 'unchanged', target: toolPath(row.tool_slug) };
    } else if (pendingId !== undefined) {
      await trx
        .updateTable('submissions')
        .set({ name: displayName(doc), website_url: websiteOf(doc), description: doc.description })
        .where('id', '=', pendingId)
        .execute();
      await trx
        .updateTable('submission_servers')
        .set({ doc: JSON.stringify(doc) })
        .where('submission_id', '=', pendingId)
        .execute();
      results[at] = { outcome: 'updated', target: `pending submission ${pendingId}` };
    } else fresh.push({ doc, at });
  }
  await upsertServers(trx, changed);
  if (fresh.length) {
    const createdAt = new Date().toISOString();
    const inserted = await trx
      .insertInto('submissions')
      .values(
        fresh.map(({ doc }) => ({
          name: displayName(doc),
          email: '',
          website_url: websiteOf(doc),
          tool_type: 'mcp-server',
          description: doc.description,
          message: messageOf(doc),
          status: 'pending' as const,
          created_at: createdAt,
        })),
      )
      .returning('id')
      .execute();
    // One statement numbers its rows in the order given (an identity on Postgres, the rowid on SQLite), though
    // RETURNING may list them in another order.
    const ids = inserted.map((r) => r.id).sort((a, b) => a - b);
    await trx
      .insertInto('submission_servers')
      .values(fresh.map(({ doc }, i) => ({ submission_id: ids[i]!, name: doc.name, doc: JSON.stringify(doc) })))
      .execute();
    fresh.forEach(({ at }, i) => (results[at] = { outcome: 'added', submissionId: ids[i]! }));
  }
  return results;
}

/** Validates and applies every document in one transaction: nothing is half-imported. */
export async function importServers(db: DB, path: string): Promise<ImportSummary> {
  const { candidates, refused } = readCandidates(path);
  const summary: ImportSummary = { added: [], updated: [], refused };
  await inTransaction(db, async (trx) => {
    for (const { source, document } of candidates) {
      const parsed = serverJsonSchema.safeParse(document);
      if (!parsed.success) {
        summary.refused.push({ source, reasons: issueLines(parsed.error) });
        continue;
      }
      const doc = parsed.data as ServerJson;
      const r = await bringIn(trx, doc, `Imported from server.json: ${doc.name} ${doc.version}`);
      if (r.outcome === 'added') summary.added.push({ name: doc.name, submissionId: r.submissionId });
      else summary.updated.push({ name: doc.name, target: r.target });
    }
  });
  return summary;
}

/** The summary for the operator's terminal: names, paths and reasons come from the documents, so shown escaped. */
export function formatSummary(s: ImportSummary): string {
  const lines = [`Added ${s.added.length}, updated ${s.updated.length}, refused ${s.refused.length}.`];
  for (const a of s.added) lines.push(`  added    ${a.name} (pending submission ${a.submissionId})`);
  for (const u of s.updated) lines.push(`  updated  ${u.name} (${u.target})`);
  for (const r of s.refused) lines.push(`  refused  ${r.source}: ${r.reasons.join('; ')}`);
  return lines.map((l) => escapeForDisplay(l)).join('\n');
}
