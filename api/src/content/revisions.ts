/**
 * Saved versions of what editors change in the console, for both kinds (a post by its slug, a tool by its slug):
 * every save adds a row with the whole record, so versions can be listed, compared and restored
 * (docs/operations.md, Editing content).
 *
 * Optimistic concurrency: a save names the version it started from. When another save came first, it is refused
 * with 409 and the newer version, never written over it. The unique key (kind, key, version) is what decides when
 * two saves of one version race, on SQLite and on Postgres alike.
 */
import type { DiffLine, Revision, RevisionSummary } from '@aitools/contracts/editing';
import { diffArrays } from 'diff';
import { inTransaction, type DB } from '../db/connection';

export type ContentKind = 'post' | 'tool';

/** The second of two saves of one version: it carries the version saved in between, for the editor to see. */
export class StaleVersionError extends Error {
  readonly status = 409;
  constructor(readonly latest: Revision | null) {
    super(
      `Someone saved a newer version (${latest?.version ?? '?'}, by ${latest?.author ?? 'someone'}) after the one you started from: ` +
        'look at it, then save again from it.',
    );
  }
}

/** Who wrote the first version of a record that existed before its first edit (the seed, an approval, an import). */
export const BEFORE_EDITS = 'before the first edit';

/** The newest version of a record, 0 when it was never saved here. */
export async function latestVersion(db: DB, kind: ContentKind, key: string): Promise<number> {
  const row = await db
    .selectFrom('content_revisions')
    .select((eb) => eb.fn.max('version').as('v'))
    .where('kind', '=', kind)
    .where('key', '=', key)
    .executeTakeFirst();
  return Number(row?.v ?? 0);
}

/** The versions of one record, newest first. */
export async function listRevisions(db: DB, kind: ContentKind, key: string): Promise<RevisionSummary[]> {
  const rows = await db
    .selectFrom('content_revisions')
    .select(['version', 'author', 'created_at'])
    .where('kind', '=', kind)
    .where('key', '=', key)
    .orderBy('version', 'desc')
    .execute();
  return rows.map((r) => ({ ...r, version: Number(r.version) }));
}

export async function getRevision<T = unknown>(
  db: DB,
  kind: ContentKind,
  key: string,
  version: number,
): Promise<Revision<T> | null> {
  const row = await db
    .selectFrom('content_revisions')
    .select(['version', 'author', 'created_at', 'body'])
    .where('kind', '=', kind)
    .where('key', '=', key)
    .where('version', '=', version)
    .executeTakeFirst();
  return row ? { ...row, version: Number(row.version), body: JSON.parse(row.body) as T } : null;
}

export interface SaveRequest<T> {
  kind: ContentKind;
  key: string;
  /** The version the editor started from (0 for a record never saved here). */
  base: number;
  body: T;
  author: string;
  /** The record as stored before this save: kept as version 1 when this is its first save here. */
  previous?: T;
  /** Takes the record's row lock first (tools/repository.ts lockTools), so a change made elsewhere at the same
   *  moment (a rename of a tag) either comes before this save's version check or waits for the save. */
  lock?: (trx: DB) => Promise<void>;
}

function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Saves a version and applies it (`apply` writes the record itself) in one transaction, or refuses with
 * StaleVersionError when `base` is not the newest version. Returns the new version. Call it outside a transaction:
 * a refused save rolls back everything `apply` did.
 */
export async function saveRevision<T>(
  db: DB,
  save: SaveRequest<T>,
  apply: (trx: DB, version: number) => Promise<void>,
): Promise<number> {
  const { kind, key, base } = save;
  try {
    return await inTransaction(db, async (trx) => {
      await save.lock?.(trx);
      const latest = await latestVersion(trx, kind, key);
      if (latest !== base) throw new StaleVersionError(null);
      const now = new Date().toISOString();
      let version = latest;
      const insert = (body: unknown, author: string) =>
        trx
          .insertInto('content_revisions')
          .values({ kind, key, version: ++version, body: JSON.stringify(body), author, created_at: now })
          .execute();
      if (latest === 0 && save.previous !== undefined) await insert(save.previous, BEFORE_EDITS);
      await insert(save.body, save.author);
      await apply(trx, version);
      return version;
    });
  } catch (err) {
    if (!(err instanceof StaleVersionError) && !isUniqueViolation(err)) throw err;
    const newest = await latestVersion(db, kind, key);
    throw new StaleVersionError(newest ? await getRevision(db, kind, key, newest) : null);
  }
}

/**
 * A record as lines to compare: one `field: value` line per field in name order, a multi-line text (a post's
 * markdown) as its own lines under its name.
 */
export function revisionText(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [JSON.stringify(body)];
  const lines: string[] = [];
  for (const name of Object.keys(body).sort()) {
    const value = (body as Record<string, unknown>)[name];
    if (value === undefined) continue;
    if (typeof value === 'string' && value.includes('\n')) lines.push(`${name}:`, ...value.split('\n'));
    else lines.push(`${name}: ${JSON.stringify(value)}`);
  }
  return lines;
}

/** A line diff: `whole` when the versions differ in too many lines to pair them up, so the changed middle is shown
 *  as all of its old lines removed and all of its new lines added. */
export interface LineDiff {
  lines: DiffLine[];
  whole: boolean;
}

/** Bounds of the comparison (Myers' O((n+m)·D) for D changed lines, and D² for the paths it keeps): beyond them
 *  diffLines stops and answers the whole middle replaced, so a long post never holds the server for long. */
export const DIFF_WORK = 3_000_000;
export const DIFF_MAX_CHANGES = 500;

/** Lines of `a` and `b` as a unified list: kept (' '), removed ('-') and added ('+'), fewest changes first. */
export function diffLines(a: string[], b: string[]): LineDiff {
  // Equal heads and tails are kept as they are; only the changed middle counts towards the bounds.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const oldMiddle = a.slice(start, endA);
  const newMiddle = b.slice(start, endB);
  const size = oldMiddle.length + newMiddle.length;
  const maxEditLength = Math.max(1, Math.min(size, DIFF_MAX_CHANGES, Math.floor(DIFF_WORK / Math.max(size, 1))));
  const found = diffArrays(oldMiddle, newMiddle, { maxEditLength });
  const changes = found ?? [
    { value: oldMiddle, added: false, removed: true },
    { value: newMiddle, added: true, removed: false },
  ];
  const kept = (text: string): DiffLine => ({ op: ' ', text });
  const lines = a.slice(0, start).map(kept);
  for (const change of changes) {
    const op = change.added ? '+' : change.removed ? '-' : ' ';
    for (const text of change.value) lines.push({ op, text });
  }
  for (const text of a.slice(endA)) lines.push(kept(text));
  return { lines, whole: found === undefined };
}

/** What changed from version `from` to version `to` of one record; null when either is missing. */
export async function diffRevisions(
  db: DB,
  kind: ContentKind,
  key: string,
  from: number,
  to: number,
): Promise<LineDiff | null> {
  const [a, b] = await Promise.all([getRevision(db, kind, key, from), getRevision(db, kind, key, to)]);
  if (!a || !b) return null;
  return diffLines(revisionText(a.body), revisionText(b.body));
}
