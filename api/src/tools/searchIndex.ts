/**
 * The directory's full-text index, on each database's own engine (docs/architecture.md, Directory search): SQLite's
 * FTS5 (porter stemming, bm25 with a weight per column) and Postgres' text search (weighted tsvectors, ts_rank_cd).
 * One row per listed tool, kept in step with the held list (repository.ts) at each data version: only tools whose
 * text changed are written again, and tools no longer listed are removed. Beside the words, each row holds the
 * lower-cased text of the whole-text rule on a trigram index (Postgres pg_trgm, SQLite FTS5's trigram tokenizer)
 * and the filters' facets, so a search ranks, filters, counts and cuts its page in the database. On Postgres the
 * index also holds each tool's words in impact order and each word's tools, so that a page reads a bounded number of
 * rows whatever the number of matches (boundedPage.ts).
 */
import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import { inTransaction, sqliteHandle, type DB } from '../db/connection';
import { dataVersion } from '../content/dataVersion';
import { offeredToolTexts } from '../registry/inspections';
import type { ToolSummary } from '@aitools/contracts/tools';
import { DEFAULT_POPULARITY, toolFacets, type ToolFacets } from '@aitools/contracts/toolQuery';
import { listToolSummaries } from './repository';
import { boundedPage } from './boundedPage';
import { facetFlags, type IndexFilters } from './searchFacets';
import { fillCodes, MEANING_LIMITS, nearestTool, searchCode } from './meaning/meaning';
import { placeGuess, placeGuessInWindow } from './meaning/placement';

/** What a tool is found by, one text per field. A word counts as covered when found in any field but `mcpText`,
 *  which only adds to the score (a server's tool descriptions are long and would cover any words). */
interface SearchDocument {
  id: number;
  name: string;
  tags: string;
  category: string;
  /** An inspected MCP server's tool names and titles. */
  mcp: string;
  /** The first sentence of each of its tools' descriptions. */
  mcpText: string;
  description: string;
  /** The lower-cased texts of the whole-text rule (name, description, MCP tool names), apart by WHOLE_SEPARATOR. */
  whole: string;
  facets: ToolFacets;
  popularity: number;
}

/** Between the whole-text rule's fields: a control character, which no search text holds (search.ts). */
const WHOLE_SEPARATOR = '\u0001';

/** bm25 weights, in column order (name, tags, category, mcp, mcp_text, description): name and tags say most, then
 *  the category, then the MCP tools, and the description least. */
const SQLITE_WEIGHTS = '10.0, 10.0, 4.0, 2.0, 1.5, 1.0';
/** The columns a word must be found in to count as covered. */
const COVERING = '{name tags category mcp description}';
/** ts_rank_cd's weights for D (description), C (MCP tools), B (category), A (name, tags). */
export const POSTGRES_WEIGHTS = '{0.1, 0.2, 0.4, 1.0}';
/** ts_rank_cd's normalization 1: the rank divided by ln(1 + the text's length in words), so a long text does not
 *  outrank a short one by holding more words, as bm25's length normalization does on SQLite. */
const POSTGRES_NORMALIZATION = 1;
/** The tsquery of one index word (a lexeme, not parsed again as text): quoted, its quotes and backslashes doubled
 *  (chr 39 and 92). */
export const lexemeQuery = (lexeme: RawBuilder<unknown>) =>
  sql`(chr(39) || replace(replace(${lexeme}, chr(92), chr(92) || chr(92)), chr(39), chr(39) || chr(39)) || chr(39))::tsquery`;
/** A tool's score for the tsquery in column `q`: its doc's rank plus its MCP tools' texts' (most tools offer none:
 *  their mcp_text is ranked only when it matches, the same score for half the work). One expression for the
 *  ranking and for the impacts of tool_search_terms, so a word's impact is, to the bit, the score of a tool that
 *  matches that word alone (boundedPage's ties rely on it). */
export const POSTGRES_SCORE = sql`ts_rank_cd(${POSTGRES_WEIGHTS}::float4[], doc, q, ${sql.lit(POSTGRES_NORMALIZATION)}) +
  CASE WHEN mcp_text @@ q
    THEN ts_rank_cd(${POSTGRES_WEIGHTS}::float4[], mcp_text, q, ${sql.lit(POSTGRES_NORMALIZATION)}) ELSE 0 END`;

export function documentOf(tool: ToolSummary, mcp?: { names: string; descriptions: string }): SearchDocument {
  return {
    id: tool.id,
    name: tool.name,
    tags: tool.tags.join(', '),
    category: tool.category ?? '',
    mcp: mcp?.names ?? '',
    mcpText: mcp?.descriptions ?? '',
    description: tool.description ?? '',
    whole: [tool.name, tool.description ?? '', (tool.mcpTools ?? []).join('\n')]
      .map((t) => t.toLowerCase())
      .join(WHOLE_SEPARATOR),
    facets: toolFacets(tool),
    popularity: typeof tool.popularityScore === 'number' ? tool.popularityScore : DEFAULT_POPULARITY,
  };
}

const digestOf = ({ id: _id, ...d }: SearchDocument) =>
  createHash('sha1').update(JSON.stringify(d)).digest('base64url');

const synced = new WeakMap<DB, { version: number; done: Promise<void> }>();

/** Brings the index in step with the listed tools of the current data version (once per version and process). */
export async function syncSearchIndex(db: DB): Promise<void> {
  const version = await dataVersion(db);
  let entry = synced.get(db);
  if (entry?.version !== version) {
    entry = { version, done: writeIndex(db) };
    synced.set(db, entry);
    // The codes follow the index, in the background: no search waits for them (meaning/meaning.ts).
    if (guessing) void entry.done.then(() => fillCodes(db)).catch(guessFailed);
    const mine = entry;
    entry.done.catch(() => synced.get(db) === mine && synced.delete(db));
  }
  return entry.done;
}

async function writeIndex(db: DB): Promise<void> {
  const [tools, mcp] = await Promise.all([listToolSummaries(db), offeredToolTexts(db)]);
  const wanted = new Map(
    tools.map((t) => {
      const d = documentOf(t, mcp.get(t.slug));
      return [d.id, { d, digest: digestOf(d) }];
    }),
  );
  const handle = sqliteHandle(db);
  if (handle) {
    const stored = handle.prepare<[], { id: number; digest: string }>('SELECT id, digest FROM tool_facets').all();
    const drops = ['tool_search', 'tool_whole'].map((t) =>
      handle.prepare<[number]>(`DELETE FROM ${t} WHERE rowid = ?`),
    );
    const dropFacets = handle.prepare<[number]>('DELETE FROM tool_facets WHERE id = ?');
    const addWords = handle.prepare(
      'INSERT INTO tool_search (rowid, name, tags, category, mcp, mcp_text, description) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const addWhole = handle.prepare('INSERT INTO tool_whole (rowid, whole) VALUES (?, ?)');
    const addFacets = handle.prepare(
      `INSERT INTO tool_facets (id, digest, category, mcp, free, paid, checked, healthy, popularity)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    handle.transaction(() => {
      const kept = new Set<number>();
      for (const row of stored)
        if (wanted.get(row.id)?.digest === row.digest) kept.add(row.id);
        else {
          for (const drop of drops) drop.run(row.id);
          dropFacets.run(row.id);
        }
      for (const { d, digest } of wanted.values()) {
        if (kept.has(d.id)) continue;
        const f = d.facets;
        addWords.run(d.id, d.name, d.tags, d.category, d.mcp, d.mcpText, d.description);
        addWhole.run(d.id, d.whole);
        addFacets.run(d.id, digest, f.category, +f.mcp, +f.free, +f.paid, +f.checked, +f.healthy, d.popularity);
      }
    })();
    return;
  }
  const { rows: stored } = await sql<{ id: number; digest: string }>`SELECT id, digest FROM tool_search`.execute(db);
  const gone = stored.filter((r) => !wanted.has(r.id)).map((r) => r.id);
  const current = new Map(stored.map((r) => [r.id, r.digest]));
  const changed = [...wanted.values()].filter(({ d, digest }) => current.get(d.id) !== digest);
  // The words whose lists of tools change: those of the tools removed or rewritten, before and after.
  const touched = new Set<string>();
  const dropTerms = async (trx: DB, ids: number[]) => {
    const { rows } = await sql<{ word: string }>`DELETE FROM tool_search_terms WHERE tool = ANY(${ids}::int[])
      RETURNING word`.execute(trx);
    for (const { word } of rows) touched.add(word);
  };
  if (gone.length)
    await inTransaction(db, async (trx) => {
      await dropTerms(trx, gone);
      await sql`DELETE FROM tool_search WHERE id = ANY(${gone}::int[])`.execute(trx);
    });
  for (let i = 0; i < changed.length; i += 1000) {
    const batch = changed.slice(i, i + 1000).map((x) => x.d);
    const column = <K extends keyof SearchDocument>(field: K) => batch.map((d) => d[field]);
    const facet = <K extends keyof ToolFacets>(field: K) => batch.map((d) => d.facets[field]);
    const ids = column('id');
    // A row and its words change together (another instance may be writing the same rows: its words wait).
    await inTransaction(db, async (trx) => {
      await sql`INSERT INTO tool_search (id, digest, doc, mcp_text, whole, category, mcp, free, paid, checked,
        healthy, popularity)
        SELECT id, digest,
          setweight(to_tsvector('english', name), 'A') || setweight(to_tsvector('english', tags), 'A') ||
          setweight(to_tsvector('english', category), 'B') || setweight(to_tsvector('english', mcp), 'C') ||
          setweight(to_tsvector('english', description), 'D'),
          setweight(to_tsvector('english', mcp_text), 'C'), whole, facet, is_mcp, free, paid, checked, healthy,
          popularity
        FROM unnest(${ids}::int[], ${changed.slice(i, i + 1000).map((x) => x.digest)}::text[],
          ${column('name')}::text[], ${column('tags')}::text[], ${column('category')}::text[],
          ${column('mcp')}::text[], ${column('mcpText')}::text[], ${column('description')}::text[],
          ${column('whole')}::text[], ${facet('category')}::text[], ${facet('mcp')}::bool[], ${facet('free')}::bool[],
          ${facet('paid')}::bool[], ${facet('checked')}::bool[], ${facet('healthy')}::bool[],
          ${column('popularity')}::float8[])
          AS t(id, digest, name, tags, category, mcp, mcp_text, description, whole, facet, is_mcp, free, paid,
            checked, healthy, popularity)
        ON CONFLICT (id) DO UPDATE SET digest = excluded.digest, doc = excluded.doc, mcp_text = excluded.mcp_text,
          whole = excluded.whole, category = excluded.category, mcp = excluded.mcp, free = excluded.free,
          paid = excluded.paid, checked = excluded.checked, healthy = excluded.healthy,
          popularity = excluded.popularity`.execute(trx);
      await dropTerms(trx, ids);
      // A word's impact is the tool's score for a query of that word alone. For a query of several words (an OR of
      // them) the score is the sum of its matched words' impacts, up to float rounding; exactly a word's impact when
      // the tool matches no other (docs/performance.md, Directory search).
      await sql`INSERT INTO tool_search_terms (tool, word, impact, popularity)
        SELECT s.id, w.lexeme, ${POSTGRES_SCORE}, s.popularity
        FROM tool_search AS s,
          LATERAL (SELECT lexeme, ${lexemeQuery(sql`lexeme`)} AS q
            FROM (SELECT lexeme FROM unnest(s.doc) UNION SELECT lexeme FROM unnest(s.mcp_text)) AS u) AS w
        WHERE s.id = ANY(${ids}::int[])`.execute(trx);
    });
  }
  if (changed.length) {
    const { rows } = await sql<{ word: string }>`SELECT DISTINCT word FROM tool_search_terms
      WHERE tool = ANY(${changed.map((x) => x.d.id)}::int[])`.execute(db);
    for (const { word } of rows) touched.add(word);
  }
  // Once per sync, not per batch: a common word's list is as long as the catalogue.
  if (touched.size)
    await inTransaction(db, async (trx) => {
      const words = [...touched];
      await sql`DELETE FROM tool_search_words WHERE word = ANY(${words}::text[])`.execute(trx);
      await sql`INSERT INTO tool_search_words (word, tools)
        SELECT word, array_agg(tool ORDER BY tool) FROM tool_search_terms WHERE word = ANY(${words}::text[])
        GROUP BY word`.execute(trx);
    });
  // A sync that rewrote a tenth of the index or more (the first, a bulk import) vacuums and analyzes it before the
  // searches waiting for it go on, not when autovacuum next passes: until then the lists' index-only reads visit
  // every row and the planner has no statistics (docs/performance.md, Directory search). Not inside a caller's
  // transaction, where VACUUM cannot run (autovacuum then does it).
  const rewritten = changed.length + gone.length;
  if (rewritten && rewritten >= stored.length / 10 && !db.isTransaction)
    await sql`VACUUM (ANALYZE) tool_search, tool_search_terms, tool_search_words`.execute(db);
}

/** What a search asks of the index: its word groups (a typed word and its other words, searchWords.ts), whether the
 *  last word may be half typed (then it is also read as a prefix), and the whole text, trimmed and lower-cased. */
export interface IndexSearch {
  groups: string[][];
  prefixLast: boolean;
  lowered: string;
}

export type { IndexFilters } from './searchFacets';

/** Which ranked tools to answer: `limit` from `offset`, or all of them. */
export interface Window {
  limit: number;
  offset: number;
}

/**
 * The tools a search finds, best first, filtered, and how many there are in all: a tool whose texts contain the
 * whole typed text first; then by how many word groups a tool covers, the engine's weighted score, popularity and
 * age. Ranking, filters, count and page all run in the database (ORDER BY … LIMIT over its indexes). Words are
 * letters and digits only (searchWords.ts), so each is quoted as a plain term for the engine; the whole text is
 * matched as a literal substring.
 */
export async function rankedIds(
  db: DB,
  search: IndexSearch,
  filters: IndexFilters,
  window?: Window,
): Promise<{ ids: number[]; total: number }> {
  if (!search.groups.length && !search.lowered) return { ids: [], total: 0 };
  await syncSearchIndex(db);
  const words = wordsRanking(db, search, filters);
  // The guess is found while the words rank (its code in the meaning thread, its scan on another connection), and
  // the words' window is read one place earlier, as placing the guess needs (meaning/placement.ts).
  const guessed = meaningGuess(db, search, filters);
  const start = window ? Math.max(0, window.offset - 1) : 0;
  const [guess, page] = await Promise.all([guessed, words.window(start, window && window.limit + 1)]);
  if (!window) {
    const ids = guess === undefined ? page.ids : placeGuess(page.ids, guess);
    return { ids, total: ids.length };
  }
  if (guess === undefined) {
    const ids = page.ids.slice(window.offset - start, window.offset - start + window.limit);
    return { ids, total: page.total };
  }
  return placeGuessInWindow(words, guess, window.offset, window.limit, page);
}

/** The words' ranking of a search (whole text, word groups, weighted score, popularity), on the database's engine. */
function wordsRanking(db: DB, search: IndexSearch, filters: IndexFilters) {
  const isPrefix = (g: number, w: number) => search.prefixLast && g === search.groups.length - 1 && w === 0;
  // A text holding the fields' separator (it could match across two fields) or NUL (no text can hold it in
  // Postgres) is not the whole text of any tool.
  const whole = search.lowered.includes('\u0000') || search.lowered.includes(WHOLE_SEPARATOR) ? '' : search.lowered;
  const h = sqliteHandle(db);
  const ranked = async (window?: Window, only?: number[]) => {
    if (!h) return postgresRanked(db, search, whole, filters, window, isPrefix, only);
    const rows = sqliteRanked(h, search, whole, filters, window, isPrefix, only);
    // A page past the last has no rows, and so no count: the caller asks for the first page (search.ts).
    return { ids: rows.map((r) => r.id), total: rows.length ? rows[0].total : 0 };
  };
  return {
    window: (offset: number, limit?: number) => ranked(limit === undefined ? undefined : { offset, limit }),
    orderOf: async (ids: number[]) => (await ranked(undefined, ids)).ids,
  };
}

/** The meaning's guess for a search of two words or more that the words find something for (meaning/meaning.ts),
 *  among the tools the filters keep, in a catalogue of at most MEANING_LIMITS.maxCatalogue tools; none while no tool
 *  has a code, or when the search's code cannot be made. */
async function meaningGuess(db: DB, search: IndexSearch, filters: IndexFilters): Promise<number | undefined> {
  if (!guessing || search.groups.length < 2) return undefined;
  if ((await listToolSummaries(db)).length > MEANING_LIMITS.maxCatalogue) return undefined;
  let code: Uint8Array;
  try {
    code = await searchCode(search.lowered);
  } catch (err) {
    guessFailed(err);
    return undefined;
  }
  return nearestTool(db, code, filters);
}

let guessing = false;
let guessFailed: (err: unknown) => void = () => undefined;

/** Turns the meaning's guess on (the server, its tests and the benchmark) and codes the catalogue after each
 *  change of the index; `onError` hears of a search answered without it. Unit tests of the words' ranking leave it
 *  off. */
export function startMeaning(onError: (err: unknown) => void = () => undefined): void {
  guessing = true;
  guessFailed = onError;
}

/** Turns it off again (the benchmark measures the words alone beside it). */
export function stopMeaning(): void {
  guessing = false;
}

export type Prefixed = (group: number, word: number) => boolean;

function sqliteRanked(
  h: NonNullable<ReturnType<typeof sqliteHandle>>,
  { groups }: IndexSearch,
  whole: string,
  filters: IndexFilters,
  window: Window | undefined,
  isPrefix: Prefixed,
  only?: number[],
): { id: number; total: number }[] {
  const expr = groups.map((g, gi) => `(${g.map((w, wi) => `"${w}"${isPrefix(gi, wi) ? '*' : ''}`).join(' OR ')})`);
  const params: unknown[] = [];
  // One pass over the matches: each tool's rows (its score, one per group it covers, one if it holds the whole
  // text) are summed by id, where joining each set back to the matches cost 15-25% more (docs/performance.md).
  const parts: string[] = [];
  if (expr.length) {
    parts.push(`SELECT rowid AS id, 0 AS whole, 0 AS covered, -bm25(tool_search, ${SQLITE_WEIGHTS}) AS score
      FROM tool_search WHERE tool_search MATCH ?`);
    params.push(expr.join(' OR '));
    for (const e of expr) {
      parts.push('SELECT rowid, 0, 1, NULL FROM tool_search WHERE tool_search MATCH ?');
      params.push(`${COVERING} : ${e}`);
    }
  }
  // GLOB, not LIKE: the trigram index serves it, and it is exact (the text is lower-cased on both sides).
  // Named again: it is the only part when no word is left to match (stop words only).
  parts.push('SELECT rowid AS id, 1 AS whole, 0 AS covered, NULL AS score FROM tool_whole WHERE whole GLOB ?');
  params.push(whole ? `*${whole.replace(/[[*?]/g, (c) => `[${c}]`)}*` : '');
  const byCategory = filters.category !== 'All';
  if (byCategory) params.push(filters.category);
  if (only) params.push(...only);
  if (window) params.push(window.limit, window.offset);
  const statement = `SELECT f.id AS id, count(*) OVER () AS total
    FROM (SELECT id, max(whole) AS whole, sum(covered) AS covered, max(score) AS score
      FROM (${parts.join(' UNION ALL ')}) GROUP BY id) AS m
      JOIN tool_facets AS f ON f.id = m.id
    WHERE ${facetFlags(filters)}${byCategory ? ' AND f.category = ?' : ''}
      ${only ? `AND f.id IN (${only.map(() => '?').join(', ')})` : ''}
    ORDER BY m.whole DESC, m.covered DESC, m.score DESC, f.popularity DESC, f.id
    ${window ? 'LIMIT ? OFFSET ?' : ''}`;
  return h.prepare<unknown[], { id: number; total: number }>(statement).all(...params);
}

/** Postgres' ranking of a search: which rows match, their sort keys and the score, shared by the exact ranking and
 *  the bounded one (one formula). `only`: the ids to look at (the bounded ranking's candidates), else all. */
function postgresRanking(groups: string[][], whole: string, filters: IndexFilters, isPrefix: Prefixed) {
  const queries = groups.map((g, gi) => g.map((w, wi) => `'${w}'${isPrefix(gi, wi) ? ':*' : ''}`).join(' | '));
  // Each query is parsed once (in FROM), not once per row.
  const parsed = queries.map((q, i) => sql`, to_tsquery('english', ${q}) AS ${sql.id(`g${i}`)}`);
  const covered = queries.length
    ? sql.join(
        queries.map((_, i) => sql`(doc @@ ${sql.id(`g${i}`)})::int`),
        sql` + `,
      )
    : sql`0`;
  const any = queries.map((q) => `(${q})`).join(' | ');
  // No whole text: the rule is left out (a constant condition would keep Postgres from the indexes).
  const isWhole = whole ? sql`whole LIKE ${`%${whole.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : sql`false`;
  const matched = queries.length ? sql`(doc @@ q OR mcp_text @@ q OR ${isWhole})` : isWhole;
  const score = queries.length ? POSTGRES_SCORE : sql`0`;
  const order = sql.join(
    [...(whole ? [sql`${isWhole} DESC`] : []), ...(queries.length ? [sql`${covered} DESC, ${score} DESC`] : []), sql``],
    sql`, `,
  );
  // The words of the score's query once each: a word typed twice, or given by two other words, adds nothing to
  // ts_rank_cd but its cost (its operands are plain lexemes, so the OR's text splits on its operator).
  const scoring = sql`(SELECT coalesce(string_agg(DISTINCT w, ' | '), '')::tsquery AS q
    FROM regexp_split_to_table(to_tsquery('english', ${any})::text, ' [|] ') AS w) AS scoring`;
  const from = (only?: RawBuilder<unknown>) => sql`FROM tool_search
    ${queries.length ? sql`, ${scoring}` : sql``} ${sql.join(parsed, sql``)}
    WHERE ${matched} AND ${sql.raw(facetFlags(filters))}
      ${filters.category !== 'All' ? sql`AND category = ${filters.category}` : sql``}
      ${only ? sql`AND id = ANY(${only})` : sql``}`;
  return { from, order: sql`${order} popularity DESC, id`, isWhole, covered, score };
}

export type PostgresRanking = ReturnType<typeof postgresRanking>;

async function postgresRanked(
  db: DB,
  { groups }: IndexSearch,
  whole: string,
  filters: IndexFilters,
  window: Window | undefined,
  isPrefix: Prefixed,
  only?: number[],
): Promise<{ ids: number[]; total: number }> {
  const ranking = postgresRanking(groups, whole, filters, isPrefix);
  if (only) {
    const { rows } = await sql<{
      id: number;
    }>`SELECT id ${ranking.from(sql`${only}::int[]`)} ORDER BY ${ranking.order}`.execute(db);
    return { ids: rows.map((r) => r.id), total: rows.length };
  }
  if (window) {
    const unfiltered = facetFlags(filters) === 'true' && filters.category === 'All';
    const page = await boundedPage(db, ranking, groups, whole, unfiltered, window, isPrefix);
    if (page) return page;
  }
  const { from, order } = ranking;
  // The page is a top-N sort and the count a plain count: a count beside each row (count(*) OVER ()) would keep
  // every match with its sort keys in memory.
  const [{ rows }, count] = await Promise.all([
    sql<{ id: number }>`SELECT id ${from()} ORDER BY ${order}
      ${window ? sql`LIMIT ${window.limit} OFFSET ${window.offset}` : sql``}`.execute(db),
    window ? sql<{ n: string }>`SELECT count(*) AS n ${from()}`.execute(db) : undefined,
  ]);
  return { ids: rows.map((r) => r.id), total: count ? Number(count.rows[0].n) : rows.length };
}
