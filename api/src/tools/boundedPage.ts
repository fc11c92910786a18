/**
 * One page of Postgres' ranked search without scoring every match (docs/performance.md, Directory search): the
 * coverage tiers, the words' lists read in impact order, and the bound that proves a page from what was read.
 */
import { sql, type RawBuilder } from 'kysely';
import type { DB } from '../db/connection';
import type { PostgresRanking, Prefixed, Window } from './searchIndex';

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
 * noise of it is not, but where one list is left open, whose order settles a tie); else the lists are read four
 * times deeper; past `BOUNDED.maxDepth`, null (the caller ranks every match). The count never scores (the tiers'
 * union, or matchCount).
 */
export async function boundedPage(
  db: DB,
  ranking: PostgresRanking,
  groups: string[][],
  whole: string,
  unfiltered: boolean,
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
        stops ?? words.map((word) => ({ word, impact: Infinity, popularity: Infinity, tool: 0 })),
        index,
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

/** The ranking's order past the whole text and the groups covered, and a word's list's order: score (or impact),
 *  popularity, then id. Negative when the first comes first. */
const tieOrder = (scoreA: number, popularityA: number, idA: number, scoreB: number, popularityB: number, idB: number) =>
  scoreB - scoreA || popularityB - popularityA || idA - idB;

/** A ranked tool's sort keys, in the ranking's order (postgresRanking): whole text, groups covered, then tieOrder. */
const before = (a: RankKey, b: RankKey) =>
  b.whole - a.whole || b.covered - a.covered || tieOrder(a.score, a.popularity, a.id, b.score, b.popularity, b.id);

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

/** Where a word's list stopped being read: its last row read, whose impact every tool left in it is at most (a tool
 *  of the same impact is left after it: the list breaks ties by popularity, then id, as the ranking does). */
interface Stop {
  word: string;
  impact: number;
  popularity: number;
  tool: number;
}

/** Whether row `a` comes after row `b` in a word's list (tieOrder). */
const comesAfter = (a: Omit<Stop, 'word'>, b: Omit<Stop, 'word'>) =>
  tieOrder(a.impact, a.popularity, a.tool, b.impact, b.popularity, b.tool) > 0;

/** A tool read from the lists: the sum of the impacts read and the words it was read in. */
interface Read {
  tool: number;
  impact: number;
  words: string[];
}

/** The words' lists read so far: each tool read, and where each list not read to its end stopped. */
class ListReader {
  private readonly read = new Map<number, Read>();
  private readonly open: Map<string, Stop | null>;
  private depth = 0;
  constructor(
    private readonly db: DB,
    private readonly weights: Map<string, number>,
  ) {
    this.open = new Map([...weights.keys()].map((w) => [w, null]));
  }

  /** Reads each open list on to `depth` rows, in impact order (only the rows not read before: a deeper read costs
   *  its new rows alone), and answers the tools read for the first time and where the open lists stop. */
  async to(depth: number): Promise<{ fresh: Read[]; stops: Stop[] }> {
    const words = [...this.open.keys()];
    const wanted = depth - this.depth;
    // Flat arrays, not a row or a JSON object per tool: a deep read is tens of thousands of rows.
    const { rows } = await sql<{
      at: number[] | null;
      tools: number[] | null;
      impacts: number[] | null;
      pops: number[] | null;
    }>`
      SELECT array_agg(w.at::int) AS at, array_agg(t.tool) AS tools, array_agg(t.impact) AS impacts,
        array_agg(t.popularity) AS pops
      FROM unnest(${words}::text[]) WITH ORDINALITY AS w(word, at),
        LATERAL (SELECT tool, impact, popularity FROM tool_search_terms WHERE word = w.word
          ORDER BY impact DESC, popularity DESC, tool OFFSET ${this.depth} LIMIT ${wanted}) AS t`.execute(this.db);
    this.depth = depth;
    const { at = [], tools = [], impacts = [], pops = [] } = mapNulls(rows[0]);
    const fresh: Read[] = [];
    const counts = new Map<string, number>();
    for (let i = 0; i < at.length; i++) {
      const word = words[at[i] - 1];
      const impact = impacts[i] * this.weights.get(word)!;
      counts.set(word, (counts.get(word) ?? 0) + 1);
      const row = { word, impact, popularity: pops[i], tool: tools[i] };
      const stop = this.open.get(word);
      if (!stop || comesAfter(row, stop)) this.open.set(word, row);
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
    // Every list still open gave rows, so has its last row read.
    return { fresh, stops: [...this.open.values()].map((stop) => stop!) };
  }
}

const mapNulls = <T extends Record<string, unknown[] | null>>(row: T) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v ?? []])) as { [K in keyof T]: NonNullable<T[K]> };

/** The first `wanted` of the tools `ids` that match, in the ranking's order, with their sort keys. Looked up by id
 *  (a few thousand rows), never by scanning the matches. */
async function rankCandidates(
  db: DB,
  { from, isWhole, covered, score }: PostgresRanking,
  ids: number[],
  wanted: number,
): Promise<RankKey[]> {
  // Ordered by the output columns, the ranking's order (postgresRanking): the same expressions written again would
  // be other parameters to Postgres, and each tool's score computed twice.
  const { rows } = await sql<RankKey>`SELECT id, (${isWhole})::int AS whole, ${covered} AS covered,
      ${score} AS score, popularity ${from(sql`${[...new Set(ids)]}::int[]`)}
    ORDER BY whole DESC, covered DESC, score DESC, popularity DESC, id LIMIT ${wanted}`.execute(db);
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
  const a = (k: number) => sql.ref(`a${k}`);
  const u = (g: number) => sql.ref(`u${g}`);
  const unions = Array.from({ length: groups }, (_, g) => {
    const words = [...groupsOf].filter(([, of]) => of.has(g)).map(([w]) => w);
    return sql`${toolsOf(words)} AS ${sql.id(`u${g}`)}`;
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

/** intarray's union (`|`) or intersection (`&`) of two sorted int arrays. */
const op = (a: RawBuilder<unknown>, o: '|' | '&', b: RawBuilder<unknown>) =>
  sql`(${a} OPERATOR(public.${sql.raw(o)}) ${b})`;

/** The union of the words' lists of tools (tool_search_words): one sorted int array. Each list is stored sorted, and
 *  intarray's `|` merges sorted arrays in one pass, where sorting their concatenation took 4 times as long. */
const toolsOf = (words: string[]) =>
  words.length
    ? words
        .map((w) => sql`coalesce((SELECT tools FROM tool_search_words WHERE word = ${w}), '{}'::int[])`)
        .reduce((all, list) => op(all, '|', list))
    : sql`'{}'::int[]`;

/** How many tools a search finds, filtered: a count of the matching rows. */
async function matchCount(db: DB, { from }: PostgresRanking): Promise<number> {
  const { rows } = await sql<{ n: string }>`SELECT count(*) AS n ${from()}`.execute(db);
  return Number(rows[0].n);
}

/**
 * Whether `last` sorts before every tool not ranked (see boundedPage): one read but outside the floor's tier, or one
 * no list and no tier has reached. Such a tool's words are in the lists `open` (not read to their end) only, of
 * fewer groups than `least`; when it may cover as many groups as `last`, its score is at most the impacts where its
 * groups' lists stopped: the largest sums of so many groups' stops (a word of several groups counts in each, which
 * only loosens the bound). When one list of a plain word is open, such a tool matches that word alone, so its score
 * is its impact there, to the bit (searchIndex's impacts): one that ties the list's last row read sorts after it, as
 * the list and the ranking break ties alike, and `last` is proven by sorting before that row.
 */
function beatsUnread(
  last: RankKey,
  open: Stop[],
  { groupsOf, weights, phrased }: IndexWords,
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
  const [only] = open;
  // The list's last row read, with `last`'s whole text and groups: `last` sorting no later than it is proven.
  if (
    open.length === 1 &&
    weights.get(only.word) === 1 &&
    !phrased &&
    tieOrder(last.score, last.popularity, last.id, only.impact, only.popularity, only.tool) <= 0
  )
    return true;
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
