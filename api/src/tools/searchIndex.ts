/**
 * The directory's full-text index, on each database's own engine (docs/architecture.md, Directory search): SQLite's
 * FTS5 (porter stemming, bm25 with a weight per column) and Postgres' text search (weighted tsvectors, ts_rank_cd).
 * One row per listed tool, kept in step with the held list (repository.ts) at each data version: only tools whose
 * text changed are written again, and tools no longer listed are removed. Beside the words, each row holds the
 * lower-cased text of the whole-text rule on a trigram index (Postgres pg_trgm, SQLite FTS5's trigram tokenizer)
 * and the filters' facets, so a search ranks, filters, counts and cuts its page in the database. On Postgres the
 * index also holds each tool's words in impact order and each word's tools, so that a page reads a bounded number of
 * rows whatever the number of matches (boundedPage).
 */
import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import { inTransaction, sqliteHandle, type DB } from '../db/connection';
import { dataVersion } from '../content/dataVersion';
import { offeredToolTexts } from '../registry/inspections';
import type { ToolSummary } from '@aitools/contracts/tools';
import { DEFAULT_POPULARITY, toolFacets, type ToolFacets, type ToolQuery } from '@aitools/contracts/toolQuery';
import { listToolSummaries } from './repository';

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
 *  outrank a short one by holding more words, as bm25's length normalization does on SQLite. The impacts of
 *  tool_search_terms are divided the same way (lengthOf). */
const POSTGRES_NORMALIZATION = 1;
/** What normalization 1 divides a text's rank by: ln(1 + its positions), as ts_rank_cd counts them. */
const lengthOf = (vector: RawBuilder<unknown>) =>
  sql`ln(1 + (SELECT sum(coalesce(array_length(positions, 1), 1)) FROM unnest(${vector})))`;

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
      // A word's impact is what ts_rank_cd gives a query of that word alone: the weight of each of its positions,
      // summed and divided by its text's length (normalization 1), doc and mcp_text added as the score adds them.
      // For a query of several words (an OR of them) the score is the sum of its matched words' impacts
      // (docs/performance.md, Directory search).
      await sql`INSERT INTO tool_search_terms (tool, word, impact, popularity)
        SELECT s.id, w.lexeme, sum((${POSTGRES_WEIGHTS}::float4[])[
          CASE w.weight WHEN 'D' THEN 1 WHEN 'C' THEN 2 WHEN 'B' THEN 3 ELSE 4 END] / w.length)::real, s.popularity
        FROM tool_search AS s,
          -- Each text's length once per tool, not once per word.
          LATERAL (SELECT ${lengthOf(sql`s.doc`)} AS doc, ${lengthOf(sql`s.mcp_text`)} AS mcp) AS n,
          LATERAL (SELECT lexeme, unnest(weights) AS weight, n.doc AS length FROM unnest(s.doc)
            UNION ALL SELECT lexeme, unnest(weights), n.mcp FROM unnest(s.mcp_text)) AS w
        WHERE s.id = ANY(${ids}::int[])
        GROUP BY s.id, w.lexeme, s.popularity`.execute(trx);
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
}

/** What a search asks of the index: its word groups (a typed word and its other words, searchWords.ts), whether the
 *  last word may be half typed (then it is also read as a prefix), and the whole text, trimmed and lower-cased. */
export interface IndexSearch {
  groups: string[][];
  prefixLast: boolean;
  lowered: string;
}

/** The filters that narrow the ranked tools. */
export type IndexFilters = Pick<ToolQuery, 'category' | 'type' | 'pricing'>;

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
  const isPrefix = (g: number, w: number) => search.prefixLast && g === search.groups.length - 1 && w === 0;
  // A text holding the fields' separator (it could match across two fields) or NUL (no text can hold it in
  // Postgres) is not the whole text of any tool.
  const whole = search.lowered.includes('\u0000') || search.lowered.includes(WHOLE_SEPARATOR) ? '' : search.lowered;
  const h = sqliteHandle(db);
  if (!h) return postgresRanked(db, search, whole, filters, window, isPrefix);
  const rows = sqliteRanked(h, search, whole, filters, window, isPrefix);
  // A page past the last has no rows, and so no count: the caller asks for the first page (search.ts).
  return { ids: rows.map((r) => r.id), total: rows.length ? rows[0].total : 0 };
}

type Prefixed = (group: number, word: number) => boolean;

/** The type and pricing filters as conditions on the index's facet columns (names from the code, never typed). */
function facetFlags({ type, pricing }: IndexFilters): string {
  const flags = [type, pricing].flatMap((t) =>
    t === 'ai-tool' ? ['NOT mcp'] : t === 'mcp-servers' ? ['mcp'] : t && t !== 'all' ? [t] : [],
  );
  return flags.join(' AND ') || 'true';
}

function sqliteRanked(
  h: NonNullable<ReturnType<typeof sqliteHandle>>,
  { groups }: IndexSearch,
  whole: string,
  filters: IndexFilters,
  window: Window | undefined,
  isPrefix: Prefixed,
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
  if (window) params.push(window.limit, window.offset);
  const statement = `SELECT f.id AS id, count(*) OVER () AS total
    FROM (SELECT id, max(whole) AS whole, sum(covered) AS covered, max(score) AS score
      FROM (${parts.join(' UNION ALL ')}) GROUP BY id) AS m
      JOIN tool_facets AS f ON f.id = m.id
    WHERE ${facetFlags(filters)}${byCategory ? ' AND f.category = ?' : ''}
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
  // Most tools offer no MCP tools: their mcp_text is ranked only when it matches (the same score, half the work).
  const score = queries.length
    ? sql`ts_rank_cd(${POSTGRES_WEIGHTS}::float4[], doc, q, ${sql.lit(POSTGRES_NORMALIZATION)}) +
      CASE WHEN mcp_text @@ q
        THEN ts_rank_cd(${POSTGRES_WEIGHTS}::float4[], mcp_text, q, ${sql.lit(POSTGRES_NORMALIZATION)}) ELSE 0 END`
    : sql`0`;
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

type PostgresRanking = ReturnType<typeof postgresRanking>;

async function postgresRanked(
  db: DB,
  { groups }: IndexSearch,
  whole: string,
  filters: IndexFilters,
  window: Window | undefined,
  isPrefix: Prefixed,
): Promise<{ ids: number[]; total: number }> {
  const ranking = postgresRanking(groups, whole, filters, isPrefix);
  if (window) {
    const page = await boundedPage(db, ranking, groups, whole, filters, window, isPrefix);
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

/** The bounded ranking's limits: how deep it first reads each word's list (times the rows up to the page's end), how
 *  deep at most before it gives way to the exact ranking, how many index words a half-typed last word may stand for
 *  and how many tools the whole text may be found in before it does too, how many tools of a coverage tier it
 *  ranks outright, and how many it reads to keep only the lists' tools in it (coverageTiers). */
export const BOUNDED = {
  firstDepth: 4,
  maxDepth: 4096,
  maxPrefixWords: 64,
  maxWhole: 256,
  maxCovering: 2048,
  maxFloor: 32768,
  chunk: 256,
};

/** How the bounded ranking's pages ended, since the process started: proven from the lists read, read to the end
 *  of every list, or given way to the exact ranking (the benchmark reports them; the tests check them). */
export const boundedOutcomes = { proven: 0, complete: 0, exact: 0 };

/** Scores closer than this cannot be told apart when proving a page: the score adds float4s in another order than
 *  the impacts do. A page whose last row is that close to the unread tools' bound is not proven (read deeper). */
const SCORE_TIE = 1e-4;

interface RankKey {
  id: number;
  whole: number;
  covered: number;
  score: number;
  popularity: number;
}

/**
 * One page of the ranked tools without scoring every match (docs/performance.md, Directory search). Coverage sorts
 * first, so the tools with words of at least `least` groups (coverageTiers: the most groups whose tier is small
 * enough) are ranked outright by the same formula as every match, with the whole-text matches when few; when they
 * fill the page, its last row covering `least` groups proves it. Otherwise each index word's tools are read from
 * tool_search_terms in impact order, a bounded number per word, and ranked too: an unread tool has words of fewer
 * groups than `least`, only from the lists not read to their end, and a score at most the sum of the impacts
 * where those of its groups stopped (beatsUnread). A last row above every unread tool is proven (one within float
 * noise of it is not: it is read deeper); else the lists are read four times deeper; past `BOUNDED.maxDepth`, null
 * (the caller ranks every match). The count never scores (the tiers' union, or matchCount).
 */
async function boundedPage(
  db: DB,
  ranking: PostgresRanking,
  groups: string[][],
  whole: string,
  filters: IndexFilters,
  window: Window,
  isPrefix: Prefixed,
): Promise<{ ids: number[]; total: number } | null> {
  const wanted = window.offset + window.limit;
  const [index, wholeIds] = await Promise.all([
    indexWords(db, groups, isPrefix),
    // The whole-text matches, when few (else null: they are too many to rank them all).
    whole
      ? sql<{ id: number }>`SELECT id FROM tool_search WHERE ${ranking.isWhole} LIMIT ${BOUNDED.maxWhole + 1}`
          .execute(db)
          .then(({ rows }) => (rows.length > BOUNDED.maxWhole ? null : rows.map((r) => r.id)))
      : [],
  ]);
  if (!index) return (boundedOutcomes.exact++, null);
  const { groupsOf, weights } = index;
  const words = [...groupsOf.keys()];
  const tiers = await coverageTiers(db, groups.length, groupsOf, wholeIds, wanted);
  const unfiltered = facetFlags(filters) === 'true' && filters.category === 'All';
  // Unfiltered, the page fills from the floor's tier: the lists' tools outside it need no ranking.
  const floor = unfiltered ? tiers.floor : null;
  // Asked beside the first ranking (it needs no page); a page proven or given way to the exact ranking uses it.
  const total =
    unfiltered && tiers.matches !== null && !index.phrased ? Promise.resolve(tiers.matches) : matchCount(db, ranking);
  total.catch(() => {});
  const first = BOUNDED.firstDepth * wanted;
  const best = new BestKeys(wanted);
  // The tools ranked outright; a tool read from the lists is ranked or left out when first read, and a tool left out
  // stays out (its bound only falls as the lists are read deeper, and the page's last row only rises).
  const outright = [...tiers.ids, ...(wholeIds ?? [])];
  if (outright.length) best.add(await rankCandidates(db, ranking, outright, wanted));
  const looked = new Set(outright);
  const lists = new ListReader(db, weights);
  // The tier alone first when it fills the page (no list read), then the lists from `first` rows deep.
  for (let depth = tiers.ids.length >= wanted ? 0 : first; ; depth = Math.max(first, depth * 4)) {
    // Where each list not read to its end stopped (null: none read yet).
    const { fresh, stops } = depth ? await lists.to(depth) : { fresh: [], stops: null };
    const unranked = fresh.filter((r) => !looked.has(r.tool) && (!floor || floor.ids.has(r.tool)));
    await rankWithin(db, ranking, best, boundsOf(unranked, stops ?? [], groupsOf, tiers.least, wholeIds === null));
    const page = best.keys.slice(window.offset).map((r) => r.id);
    // Every match was ranked or shown unable to reach the page: all tools with words (a tier of at least one group,
    // or every list read to its end) and every whole-text match.
    if (wholeIds && (tiers.least === 1 || (stops?.length === 0 && !floor))) {
      boundedOutcomes.complete++;
      return { ids: page, total: await total };
    }
    const last = best.keys[wanted - 1];
    if (
      last &&
      beatsUnread(
        last,
        stops ?? words.map((word) => ({ word, impact: Infinity })),
        groupsOf,
        tiers.least,
        floor?.covered ?? 0,
        wholeIds === null,
      )
    ) {
      boundedOutcomes.proven++;
      return { ids: page, total: await total };
    }
    if (depth >= BOUNDED.maxDepth) return (boundedOutcomes.exact++, null);
  }
}

/** A ranked tool's sort keys, in the ranking's order (postgresRanking): whole text, groups covered, score,
 *  popularity, then id. */
const before = (a: RankKey, b: RankKey) =>
  b.whole - a.whole || b.covered - a.covered || b.score - a.score || b.popularity - a.popularity || a.id - b.id;

/** The best `size` tools ranked so far, in order. */
class BestKeys {
  keys: RankKey[] = [];
  constructor(readonly size: number) {}
  add(keys: RankKey[]) {
    this.keys = [...this.keys, ...keys].sort(before).slice(0, this.size);
  }
  /** Whether a tool whose keys are at most `bound` may still be among the best (a score within float noise of the
   *  last row's may tie it). */
  admits(bound: Omit<RankKey, 'id' | 'popularity'>): boolean {
    const last = this.keys[this.size - 1];
    if (!last) return true;
    if (bound.whole !== last.whole) return bound.whole > last.whole;
    if (bound.covered !== last.covered) return bound.covered > last.covered;
    return bound.score + SCORE_TIE >= last.score;
  }
}

/** A tool read from the lists, with what its keys are at most: the score its words read give plus the impacts where
 *  the open lists it was not seen in stopped, and the groups of those words (fewer than `least`: the tools of
 *  `least` groups are the tier, ranked outright). */
interface Bound {
  id: number;
  whole: number;
  covered: number;
  score: number;
}

function boundsOf(
  reads: Read[],
  open: Stop[],
  groupsOf: Map<string, Set<number>>,
  least: number,
  unreadWhole: boolean,
): Bound[] {
  return reads
    .map(({ tool, impact, words }) => {
      const seen = new Set<number>();
      for (const w of words) for (const g of groupsOf.get(w)!) seen.add(g);
      // What the open lists it was not seen in may add, by group (a word of several groups counts in each).
      const more = new Map<number, number>();
      for (const s of open)
        if (!words.includes(s.word)) for (const g of groupsOf.get(s.word)!) more.set(g, (more.get(g) ?? 0) + s.impact);
      // Its words are of at most `least - 1` groups: all of those seen, and the best of the others.
      const others = [...more].filter(([g]) => !seen.has(g)).map(([, x]) => x);
      const extra = Math.max(0, least - 1 - seen.size);
      const score =
        [...seen].reduce((sum, g) => sum + (more.get(g) ?? 0), impact) +
        others
          .sort((x, y) => y - x)
          .slice(0, extra)
          .reduce((sum, x) => sum + x, 0);
      return {
        id: tool,
        whole: unreadWhole ? 1 : 0,
        covered: Math.min(seen.size + Math.min(extra, others.length), least - 1),
        score,
      };
    })
    .sort((a, b) => b.whole - a.whole || b.covered - a.covered || b.score - a.score);
}

/** Ranks the tools of `bounds` (best bound first) that may still reach the best keys, a chunk at a time, leaving
 *  out those that cannot: ranking costs 20-40 µs per tool, a bound nothing (docs/performance.md). */
async function rankWithin(db: DB, ranking: PostgresRanking, best: BestKeys, bounds: Bound[]): Promise<void> {
  // Sorted by bound, and the last row only rises: once one cannot reach the page, none after it can.
  for (let at = 0; at < bounds.length && best.admits(bounds[at]);) {
    const chunk: number[] = [];
    while (at < bounds.length && chunk.length < BOUNDED.chunk && best.admits(bounds[at])) chunk.push(bounds[at++].id);
    best.add(await rankCandidates(db, ranking, chunk, best.size));
  }
}

/** Where a word's list stopped being read: the impact every tool left in it is at most. */
interface Stop {
  word: string;
  impact: number;
}

/** A tool read from the lists: the sum of the impacts read and the words it was read in. */
interface Read {
  tool: number;
  impact: number;
  words: string[];
}

/** The words' lists read so far: each tool read, and where each list not read to its end stopped. */
class ListReader {
  private readonly read = new Map<number, Read>();
  private readonly open: Map<string, number>;
  private depth = 0;
  constructor(
    private readonly db: DB,
    private readonly weights: Map<string, number>,
  ) {
    this.open = new Map([...weights.keys()].map((w) => [w, Infinity]));
  }

  /** Reads each open list on to `depth` rows, in impact order (only the rows not read before: a deeper read costs
   *  its new rows alone), and answers the tools read for the first time and where the open lists stop. */
  async to(depth: number): Promise<{ fresh: Read[]; stops: Stop[] }> {
    const words = [...this.open.keys()];
    const wanted = depth - this.depth;
    // Flat arrays, not a row or a JSON object per tool: a deep read is tens of thousands of rows.
    const { rows } = await sql<{ at: number[] | null; tools: number[] | null; impacts: number[] | null }>`
      SELECT array_agg(w.at::int) AS at, array_agg(t.tool) AS tools, array_agg(t.impact) AS impacts
      FROM unnest(${words}::text[]) WITH ORDINALITY AS w(word, at),
        LATERAL (SELECT tool, impact FROM tool_search_terms WHERE word = w.word
          ORDER BY impact DESC, popularity DESC, tool OFFSET ${this.depth} LIMIT ${wanted}) AS t`.execute(this.db);
    this.depth = depth;
    const { at = [], tools = [], impacts = [] } = mapNulls(rows[0]);
    const fresh: Read[] = [];
    const counts = new Map<string, number>();
    for (let i = 0; i < at.length; i++) {
      const word = words[at[i] - 1];
      const impact = impacts[i] * this.weights.get(word)!;
      counts.set(word, (counts.get(word) ?? 0) + 1);
      // Each list is in impact order: its last row read is its least.
      this.open.set(word, Math.min(this.open.get(word)!, impact));
      const known = this.read.get(tools[i]);
      if (known) {
        known.impact += impact;
        known.words.push(word);
      } else {
        const r = { tool: tools[i], impact, words: [word] };
        this.read.set(r.tool, r);
        fresh.push(r);
      }
    }
    // A list that gave fewer rows than asked is read to its end.
    for (const word of words) if ((counts.get(word) ?? 0) < wanted) this.open.delete(word);
    return { fresh, stops: [...this.open].map(([word, impact]) => ({ word, impact })) };
  }
}

const mapNulls = <T extends Record<string, unknown[] | null>>(row: T) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v ?? []])) as { [K in keyof T]: NonNullable<T[K]> };

/** The first `wanted` of the tools `ids` that match, in the ranking's order, with their sort keys. Looked up by id
 *  (a few thousand rows), never by scanning the matches. */
async function rankCandidates(
  db: DB,
  { from, order, isWhole, covered, score }: PostgresRanking,
  ids: number[],
  wanted: number,
): Promise<RankKey[]> {
  const { rows } = await sql<RankKey>`SELECT id, (${isWhole})::int AS whole, ${covered} AS covered,
      ${score} AS score, popularity ${from(sql`${[...new Set(ids)]}::int[]`)}
    ORDER BY ${order} LIMIT ${wanted}`.execute(db);
  return rows;
}

interface Tiers {
  least: number;
  ids: number[];
  /** The tier that fills the page when it is too large to rank outright: a tool read from the lists outside it
   *  covers fewer groups than it, and so than a last row that covers as many (at most `BOUNDED.maxFloor` ids; of
   *  two groups or more: every tool read has a word of one). */
  floor: { covered: number; ids: Set<number> } | null;
  matches: number | null;
}

/**
 * Coverage tiers from the groups' sorted id lists (tool_search_words, intarray): the tools with index words (from
 * doc or mcp_text: a superset of the groups they cover) of at least k groups, for every k, built group by group
 * (those in at least k of the first j groups are those in at least k of the first j - 1, and those in k - 1 of them
 * that are in the j-th). `least`: the most groups whose tier still fills the page (`wanted` tools; one when none
 * does), or the fewest whose tier has at most `BOUNDED.maxCovering` tools when that tier is larger; with its ids (one
 * more than the groups, and none, when even all groups' tier is larger). `matches`: how many tools have any word or
 * the whole text, when the whole-text matches are known (the unfiltered count). `floor`: see Tiers.
 */
async function coverageTiers(
  db: DB,
  groups: number,
  groupsOf: Map<string, Set<number>>,
  wholeIds: number[] | null,
  wanted: number,
): Promise<Tiers> {
  if (!groups) return { least: 1, ids: [], floor: null, matches: wholeIds?.length ?? null };
  const op = (a: RawBuilder<unknown>, o: '|' | '&', b: RawBuilder<unknown>) =>
    sql`(${a} OPERATOR(public.${sql.raw(o)}) ${b})`;
  const a = (k: number) => sql.ref(`a${k}`);
  const u = (g: number) => sql.ref(`u${g}`);
  const unions = Array.from({ length: groups }, (_, g) => {
    const words = [...groupsOf].filter(([, of]) => of.has(g)).map(([w]) => w);
    return sql`${toolsOf(words, sql`'{}'::int[]`)} AS ${sql.id(`u${g}`)}`;
  });
  // s{j}: a{k}, the tools of at least k of the first j groups (materialized: each is read twice by the next).
  const steps = Array.from({ length: groups - 1 }, (_, i) => {
    const j = i + 2;
    const tier = (k: number) =>
      k === 1
        ? op(a(1), '|', u(j - 1))
        : k === j
          ? op(a(j - 1), '&', u(j - 1))
          : op(a(k), '|', op(a(k - 1), '&', u(j - 1)));
    return sql`${sql.id(`s${j}`)} AS MATERIALIZED (SELECT ${sql.join(
      Array.from({ length: j }, (_, k) => sql`${tier(k + 1)} AS ${sql.id(`a${k + 1}`)}`),
    )} FROM ${sql.id(`s${j - 1}`)}, u)`;
  });
  const { rows } = await sql<{
    k: number;
    n: number;
    ids: number[] | null;
    floor: number[] | null;
    matches: number | null;
  }>`
    WITH u AS MATERIALIZED (SELECT ${sql.join(unions)}), s1 AS MATERIALIZED (SELECT u0 AS a1 FROM u)
      ${sql.join(
        steps.map((s) => sql`, ${s}`),
        sql``,
      )},
    t AS (SELECT t.k, t.a, public.icount(t.a) AS n FROM ${sql.id(`s${groups}`)},
      LATERAL (VALUES ${sql.join(Array.from({ length: groups }, (_, k) => sql`(${sql.lit(k + 1)}, ${a(k + 1)})`))}) AS t(k, a))
    , pick AS (SELECT coalesce((SELECT max(k) FROM t WHERE n >= ${wanted}), 1) AS fill,
        coalesce((SELECT min(k) FROM t WHERE n <= ${BOUNDED.maxCovering}), ${groups + 1}) AS small)
    SELECT k, n, CASE WHEN k = greatest(fill, small) THEN a END AS ids,
      CASE WHEN k = fill AND 1 < fill AND fill < small AND n <= ${BOUNDED.maxFloor} THEN a END AS floor,
      CASE WHEN k = 1 AND ${wholeIds !== null} THEN public.icount(${op(sql`a`, '|', sql`${wholeIds ?? []}::int[]`)}) END AS matches
    FROM t, pick ORDER BY k`.execute(db);
  const fits = rows.find((r) => r.ids);
  const floor = rows.find((r) => r.floor);
  return {
    least: fits?.k ?? groups + 1,
    ids: fits?.ids ?? [],
    floor: floor ? { covered: floor.k, ids: new Set(floor.floor) } : null,
    matches: rows[0].matches,
  };
}

/** The union of the words' lists of tools (tool_search_words) and the ids `more`: one sorted int array. */
const toolsOf = (words: string[], more: RawBuilder<unknown>) =>
  sql`public.uniq(public.sort(${sql.join(
    words.map((w) => sql`coalesce((SELECT tools FROM tool_search_words WHERE word = ${w}), '{}') || `),
    sql``,
  )} ${more}))`;

/** How many tools a search finds, filtered: a count of the matching rows. */
async function matchCount(db: DB, { from }: PostgresRanking): Promise<number> {
  const { rows } = await sql<{ n: string }>`SELECT count(*) AS n ${from()}`.execute(db);
  return Number(rows[0].n);
}

/**
 * Whether `last` sorts before every tool not ranked (see boundedPage): one read but outside the floor's tier, or one
 * no list and no tier has reached. Such a tool's words are
 * in the lists `open` (not read to their end) only, of fewer groups than `least`; when it may cover as many groups
 * as `last`, its score is at most the impacts where its groups' lists stopped: the largest sums of so many groups'
 * stops (a word of several groups counts in each, which only loosens the bound).
 */
function beatsUnread(
  last: RankKey,
  open: Stop[],
  groupsOf: Map<string, Set<number>>,
  least: number,
  floor: number,
  unreadWhole: boolean,
): boolean {
  const whole = unreadWhole ? 1 : 0;
  if (last.whole !== whole) return last.whole > whole;
  // A tool read but left out of the ranking covers fewer groups than `floor`.
  if (last.covered < floor) return false;
  const byGroup = new Map<number, number>();
  for (const s of open) for (const g of groupsOf.get(s.word)!) byGroup.set(g, (byGroup.get(g) ?? 0) + s.impact);
  const covered = Math.min(least - 1, byGroup.size);
  if (last.covered !== covered) return last.covered > covered;
  const sums = [...byGroup.values()].sort((x, y) => y - x);
  const bound = sums.slice(0, covered).reduce((sum, x) => sum + x, 0);
  // Normalized impacts are not multiples of a step, so a bound within float noise of `last` says nothing of ties.
  return last.score > bound + SCORE_TIE;
}

/** The index words a search reads: each with the groups it counts in, and how many times its impact bounds what
 *  it adds to the score (ListReader). */
interface IndexWords {
  groupsOf: Map<string, Set<number>>;
  weights: Map<string, number>;
  /** Whether a phrase is read through a stem: the words' tools are then more than the matches. */
  phrased: boolean;
}

/**
 * The index words each typed word stands for, with the groups they count in: a whole word as the engine stems it,
 * a half-typed last word as every index word it begins (at most `BOUNDED.maxPrefixWords`; null for more). A phrase
 * of the vocabulary ("speech to text") is read through its first or last stem, the one of fewer tools (half-typed:
 * the index words that stem begins): a tool that matches it has that stem, and each match is a cover of ts_rank_cd
 * that begins at one of its first stem's positions and ends at one of its last's (each cover at other ones), weighing
 * at most the positions the phrase spans times the least weight among them; so it adds at most that many times the
 * stem's impact (docs/performance.md, Directory search). A plain word adds its impact once.
 */
async function indexWords(db: DB, groups: string[][], isPrefix: Prefixed): Promise<IndexWords | null> {
  const items = groups.flatMap((g, gi) => g.map((text, wi) => ({ text, group: gi, prefix: isPrefix(gi, wi) })));
  const found: IndexWords = { groupsOf: new Map(), weights: new Map(), phrased: false };
  if (!items.length) return found;
  // Each text's stems with their first and last positions in it; a half-typed word's index words: a range of the
  // words' key (C collation), at most one more than allowed.
  const { rows } = await sql<{ at: number; stem: string; word: string; first: number; last: number; size: number }>`
    SELECT t.at::int AS at, s.stem, w.word, s.first, s.last,
      coalesce((SELECT pg_column_size(tools) FROM tool_search_words WHERE word = w.word), 0) AS size
    FROM unnest(${items.map((i) => i.text)}::text[], ${items.map((i) => i.prefix)}::bool[])
        WITH ORDINALITY AS t(text, prefix, at),
      LATERAL (SELECT lexeme AS stem, positions[1] AS first, positions[array_length(positions, 1)] AS last
        FROM unnest(to_tsvector('english', t.text))) AS s,
      LATERAL (SELECT s.stem AS word WHERE NOT t.prefix
        UNION ALL (SELECT word FROM tool_search_words
          WHERE t.prefix AND word >= s.stem COLLATE "C" AND word < (s.stem || chr(1114111)) COLLATE "C"
          ORDER BY word LIMIT ${BOUNDED.maxPrefixWords + 1})) AS w`.execute(db);
  const terms = new Set<string>();
  const phrases = new Map<string, number>();
  const byText = new Map<number, typeof rows>();
  for (const r of rows) byText.set(r.at, [...(byText.get(r.at) ?? []), r]);
  for (const [at, of] of byText) {
    const { group } = items[at - 1];
    const stems = new Map<string, typeof of>();
    for (const r of of) stems.set(r.stem, [...(stems.get(r.stem) ?? []), r]);
    const first = Math.min(...of.map((r) => r.first));
    const last = Math.max(...of.map((r) => r.last));
    let read = of;
    if (last > first) {
      const size = (words: typeof of) => words.reduce((sum, r) => sum + r.size, 0);
      [read] = [...stems.values()]
        .filter(([r]) => r.first === first || r.last === last)
        .sort((x, y) => size(x) - size(y));
      for (const { word } of read) phrases.set(word, (phrases.get(word) ?? 0) + last - first + 1);
      found.phrased = true;
    } else for (const { word } of of) terms.add(word);
    if (read.length > BOUNDED.maxPrefixWords) return null;
    for (const { word } of read) found.groupsOf.set(word, (found.groupsOf.get(word) ?? new Set()).add(group));
  }
  for (const word of found.groupsOf.keys())
    found.weights.set(word, (terms.has(word) ? 1 : 0) + (phrases.get(word) ?? 0));
  return found;
}
