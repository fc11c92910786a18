/**
 * Tool history: each inspection kept as a snapshot per server version (tools, prompts, resources and the server's
 * instructions, each with a content hash), the changes between the last two, and a change within the same version
 * flagged as a possible rug pull for the moderators (docs/mcp.md, "Tool history").
 */
import { createHash } from 'node:crypto';
import { diffWords } from 'diff';
import type { DiffPart, ItemChange, RugPullFlag, ToolHistory } from '@aitools/contracts/checks';
import { toolParameters, type McpInspection } from '@aitools/contracts/inspection';
import type { DB } from '../db/connection';
import { bySlug } from './bySlug';

export interface SnapshotItem {
  kind: ItemChange['kind'];
  name: string;
  description: string;
  /** One line per parameter or argument: "name type required — description". */
  parameters: string;
  /** sha256 of the item's content as the model reads it. */
  hash: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function item(kind: SnapshotItem['kind'], name: string, description = '', parameters = ''): SnapshotItem {
  return { kind, name, description, parameters, hash: sha256(JSON.stringify([kind, name, description, parameters])) };
}

/** The items of an inspection, in its order; an inspection that did not run has none. */
export function snapshotItems(inspection: McpInspection): SnapshotItem[] {
  if (inspection.status !== 'inspected') return [];
  return [
    ...inspection.tools.map((t) =>
      item(
        'tool',
        t.name,
        t.description,
        // The whole input schema counts for the hash: a poisoned enum or nested description is a change too.
        toolParameters(t)
          .map((p) => `${p.name} ${p.type ?? ''} ${p.required ? 'required' : 'optional'} — ${p.description ?? ''}`)
          .join('\n') + `\n${sha256(JSON.stringify(t.inputSchema ?? {})).slice(0, 12)}`,
      ),
    ),
    ...inspection.prompts.map((p) =>
      item(
        'prompt',
        p.name,
        p.description,
        (p.arguments ?? [])
          .map((a) => `${a.name} ${a.required ? 'required' : 'optional'} — ${a.description ?? ''}`)
          .join('\n'),
      ),
    ),
    ...inspection.resources.map((r) => item('resource', r.name, r.description, r.uri)),
    ...(inspection.instructions ? [item('instructions', 'instructions', inspection.instructions)] : []),
  ];
}

/** The offer's content hash: the same items in the same order give the same hash. */
export const contentHash = (items: SnapshotItem[]) => sha256(items.map((i) => i.hash).join('\n'));

const words = (before: string, after: string): DiffPart[] =>
  diffWords(before, after).map((p) => ({
    value: p.value,
    ...(p.added ? { added: true } : {}),
    ...(p.removed ? { removed: true } : {}),
  }));

export function changesBetween(before: SnapshotItem[], after: SnapshotItem[]): ItemChange[] {
  const key = (i: SnapshotItem) => `${i.kind}\n${i.name}`;
  const old = new Map(before.map((i) => [key(i), i]));
  const now = new Map(after.map((i) => [key(i), i]));
  const out: ItemChange[] = [];
  for (const i of after) {
    const was = old.get(key(i));
    if (!was) out.push({ kind: i.kind, name: i.name, change: 'added' });
    else if (was.hash !== i.hash)
      out.push({
        kind: i.kind,
        name: i.name,
        change: 'changed',
        ...(was.description !== i.description ? { description: words(was.description, i.description) } : {}),
        ...(was.parameters !== i.parameters ? { parameters: words(was.parameters, i.parameters) } : {}),
      });
  }
  for (const i of before) if (!now.has(key(i))) out.push({ kind: i.kind, name: i.name, change: 'removed' });
  return out;
}

/**
 * Keeps the inspection as a snapshot when its content differs from the latest one kept for the server; a different
 * content under the same version is also flagged as a possible rug pull. Returns what was done.
 */
export async function recordSnapshot(
  db: DB,
  slug: string,
  inspection: McpInspection,
  now = new Date(),
): Promise<'same' | 'kept' | 'flagged'> {
  if (inspection.status !== 'inspected') return 'same';
  const items = snapshotItems(inspection);
  const hash = contentHash(items);
  const latest = await db
    .selectFrom('check_snapshots')
    .select(['hash', 'version'])
    .where('tool_slug', '=', slug)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (latest?.hash === hash) return 'same';
  const at = now.toISOString();
  const row = await db
    .insertInto('check_snapshots')
    .values({ tool_slug: slug, version: inspection.version, hash, doc: JSON.stringify(items), taken_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (latest?.version !== inspection.version) return 'kept';
  await db
    .insertInto('check_rug_pulls')
    .values({ tool_slug: slug, version: inspection.version, snapshot_id: row.id, flagged_at: at })
    .execute();
  return 'flagged';
}

export interface History {
  snapshots: number;
  contentHash?: string;
  history?: ToolHistory;
  rugPulls: RugPullFlag[];
}

export async function historyOf(db: DB, slug: string): Promise<History> {
  return (await historiesOf(db, [slug])).get(slug)!;
}

/** historyOf many servers (a page of /v0.1 answers) in three queries, by slug. */
export async function historiesOf(db: DB, slugs: string[]): Promise<Map<string, History>> {
  if (!slugs.length) return new Map();
  // Each server's two newest snapshots: what its page compares.
  const newest = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('check_snapshots')
        .select((s) => [
          'tool_slug',
          'version',
          'doc',
          'hash',
          'taken_at',
          s.fn
            .agg<number>('row_number')
            .over((o) => o.partitionBy('tool_slug').orderBy('id', 'desc'))
            .as('rank'),
        ])
        .where('tool_slug', 'in', slugs)
        .as('ranked'),
    )
    .selectAll()
    .where('rank', '<=', 2)
    .orderBy('rank')
    .execute();
  const counts = await db
    .selectFrom('check_snapshots')
    .select((eb) => ['tool_slug', eb.fn.countAll<number>().as('n')])
    .where('tool_slug', 'in', slugs)
    .groupBy('tool_slug')
    .execute();
  const flags = await db
    .selectFrom('check_rug_pulls')
    .selectAll()
    .where('tool_slug', 'in', slugs)
    .orderBy('id', 'desc')
    .execute();
  const snapshotsOf = bySlug(newest);
  const countOf = new Map(counts.map((c) => [c.tool_slug, Number(c.n)]));
  const flagsOf = bySlug(flags);
  return new Map(
    slugs.map((slug) => {
      const [to, from] = snapshotsOf.get(slug) ?? [];
      const history: History = {
        snapshots: countOf.get(slug) ?? 0,
        ...(to ? { contentHash: to.hash } : {}),
        ...(to && from
          ? {
              history: {
                from: { version: from.version, takenAt: from.taken_at },
                to: { version: to.version, takenAt: to.taken_at },
                changes: changesBetween(JSON.parse(from.doc) as SnapshotItem[], JSON.parse(to.doc) as SnapshotItem[]),
              },
            }
          : {}),
        rugPulls: (flagsOf.get(slug) ?? []).map((f) => ({
          id: f.id,
          version: f.version,
          flaggedAt: f.flagged_at,
          ...(f.reviewed_at ? { reviewed: { reason: f.review_reason ?? '', at: f.reviewed_at } } : {}),
        })),
      };
      return [slug, history];
    }),
  );
}
