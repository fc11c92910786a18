/**
 * The meaning's guess in the directory's search (docs/dependencies.md, The search's meaning model): each listed tool's text has
 * a code (codes.ts) made in the meaning thread (meaningWorker.ts) and kept in the database; a search's text gets one
 * too, and the tool whose code is nearest, among those the filters keep, is the guess placed fifth (placement.ts).
 * The words' ranking never waits for codes: a tool without one yet is found by its words only, and a search whose
 * code cannot be made (the thread failed, or took longer than GUESS_BUDGET_MS) is answered by its words alone.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import { Piscina } from 'piscina';
import type { ToolSummary } from '@aitools/contracts/tools';
import { MAX_SEARCH_LENGTH } from '@aitools/contracts/toolQuery';
import { sqliteHandle, type DB } from '../../db/connection';
import { dataVersion, publicWrite } from '../../content/dataVersion';
import { facetConditions, facetFlags, type Facet, type IndexFilters } from '../searchFacets';
import { listToolSummaries } from '../repository';
import { asBits, CODE_BYTES } from './codes';

/** Part of each code's digest: another model codes every tool again. */
const MODEL = 'universal-sentence-encoder-lite-en@energetic-ai-0.2.0';
/** Texts per task while coding the catalogue: about 40 ms each, so a search's code waits at most that long. */
const FILL_BATCH = 1;
/** A search's code is made in about 10 ms; past this the search is answered by its words alone. */
export const GUESS_BUDGET_MS = 1_000;
/**
 * The largest catalogue the guess is made for (a setting the tests change). Finding the nearest code scans every code (no nearest-code index is
 * in Debian's Postgres packages): at 100,000 tools on Postgres the guess took searches to 99 ms at the median, past
 * the 50 ms the search must keep at p95, while 10,000 cost 5 ms (docs/performance.md, Directory search). Above it the
 * search is its words' alone, and the catalogue is not coded.
 */
export const MEANING_LIMITS = { maxCatalogue: 20_000 };
/** Codes written between two bumps of the data version during a fill (about 20 s of coding). */
const BUMP_EVERY = 500;

const fromSource = import.meta.url.endsWith('.ts');
let pool: Piscina | undefined;

function meaningThread(): Piscina {
  pool ??= new Piscina({
    filename: fileURLToPath(new URL(`./meaningWorker.${fromSource ? 'ts' : 'js'}`, import.meta.url)),
    // One thread, kept: the model takes a second to load, longer than a search waits (GUESS_BUDGET_MS).
    minThreads: 1,
    maxThreads: 1,
    execArgv: fromSource ? ['--import', 'tsx'] : [],
    // Its own small heap: the model's weights are typed arrays outside it, and left unbounded the heap grew to
    // 250 MB over 1,000 searches before collecting; at 64 MB the thread stays near its size after loading
    // (docs/performance.md, Directory search).
    resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 4 },
  });
  return pool;
}

async function codesOf(texts: string[]): Promise<Uint8Array[]> {
  const all = (await meaningThread().run(texts)) as Uint8Array;
  return texts.map((_, i) => all.subarray(i * CODE_BYTES, (i + 1) * CODE_BYTES));
}

/** What a tool's code is made from: its name, description and tags. */
export const toolText = (t: ToolSummary) => `${t.name}. ${t.description ?? ''} ${t.tags.join(', ')}.`;

const digestOf = (text: string) => createHash('sha1').update(`${MODEL}\n${text}`).digest('base64url');

/** The digest a tool's code is kept with: of its text and the model (a code is made again when either changes). */
export const codeDigest = (t: ToolSummary) => digestOf(toolText(t));

/** Searches' codes by text: at most 2,000 (a text is at most MAX_SEARCH_LENGTH characters): under 1 MB. */
const searchCodes = new LRUCache<string, Uint8Array>({ max: 2_000 });

/** The code of a search's text (trimmed, lower-cased, its spaces as one); past GUESS_BUDGET_MS the search goes on
 *  without it, while the thread finishes it for the next search of the same text. */
export async function searchCode(text: string): Promise<Uint8Array> {
  const key = text.trim().toLowerCase().replace(/\s+/g, ' ').slice(0, MAX_SEARCH_LENGTH);
  const known = searchCodes.get(key);
  if (known) return known;
  const making = codesOf([key]).then(([code]) => {
    searchCodes.set(key, code!);
    return code!;
  });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no code within ${GUESS_BUDGET_MS} ms`)), GUESS_BUDGET_MS);
  });
  try {
    return await Promise.race([making, late]);
  } finally {
    clearTimeout(timer);
    making.catch(() => undefined);
  }
}

/** Forgets the searches' codes (the benchmark times each search as a new text, as a visitor's usually is). */
export function forgetSearchCodes(): void {
  searchCodes.clear();
}

/** Loads the model in the meaning thread (the server, before it listens: its first searches then get their guess). */
export async function warmMeaning(): Promise<void> {
  await codesOf(['warm']);
}

const fills = new WeakMap<DB, { tail: Promise<void>; queued?: Promise<void> }>();

/**
 * Brings the codes in step with the listed tools: codes the tools whose text changed or who are new, and removes
 * those of tools no longer listed. One fill at a time per database; asked again while one runs, another follows it.
 */
export function fillCodes(db: DB): Promise<void> {
  let chain = fills.get(db);
  if (!chain) fills.set(db, (chain = { tail: Promise.resolve() }));
  if (chain.queued) return chain.queued;
  const c = chain;
  const run = c.tail.then(() => {
    c.queued = undefined;
    return writeCodes(db);
  });
  c.queued = run;
  c.tail = run.catch(() => undefined);
  return run;
}

let built: Map<string, Uint8Array> | undefined;

/** The seed's codes made by the build (src/seedCodes.ts), by digest; none when run from source. */
function builtCodes(): Map<string, Uint8Array> {
  if (!built) {
    built = new Map();
    const file = new URL('./seed-codes.json', import.meta.url);
    if (!fromSource && existsSync(file))
      for (const [digest, code] of Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>))
        built.set(digest, new Uint8Array(Buffer.from(code, 'base64')));
  }
  return built;
}

async function writeCodes(db: DB): Promise<void> {
  const tools = await listToolSummaries(db);
  if (tools.length > MEANING_LIMITS.maxCatalogue) return;
  const wanted = new Map(tools.map((t) => [t.id, { text: toolText(t), digest: codeDigest(t) }]));
  const { rows: stored } = await sql<{ id: number; digest: string }>`SELECT id, digest FROM tool_codes`.execute(db);
  const gone = stored.filter((r) => !wanted.has(r.id)).map((r) => r.id);
  const current = new Map(stored.map((r) => [r.id, r.digest]));
  const todo = [...wanted].filter(([id, w]) => current.get(id) !== w.digest);
  const postgres = !sqliteHandle(db);
  // Codes change what searches answer, so their writes bump the data version like any public write: cached answers
  // and pages go (content/dataVersion.ts). Once per BUMP_EVERY codes, not per code, on a long fill.
  let unbumped = gone.length;
  const bump = async () => {
    if (unbumped) await publicWrite(db, async () => true);
    unbumped = 0;
  };
  for (const id of gone) await sql`DELETE FROM tool_codes WHERE id = ${id}`.execute(db);
  for (let i = 0; i < todo.length; i += FILL_BATCH) {
    const batch = todo.slice(i, i + FILL_BATCH);
    const made = batch.map(([, w]) => builtCodes().get(w.digest));
    const codes = made.every(Boolean) ? (made as Uint8Array[]) : await codesOf(batch.map(([, w]) => w.text));
    for (const [k, [id, { digest }]] of batch.entries()) {
      const code = postgres ? sql`${asBits(codes[k]!)}::bit(512)` : sql`${Buffer.from(codes[k]!)}`;
      await sql`INSERT INTO tool_codes (id, digest, code) VALUES (${id}, ${digest}, ${code})
        ON CONFLICT (id) DO UPDATE SET digest = excluded.digest, code = excluded.code`.execute(db);
      if (++unbumped >= BUMP_EVERY) await bump();
    }
  }
  await bump();
}

/** The codes on SQLite, held per data version with the facets the filters read: 64 bytes, an id and a flag byte a
 *  tool (under 1 MB at 10,000 tools), scanned in this thread in about a millisecond, where a registered SQL function
 *  called per row took 28 ms (docs/performance.md, Directory search). Codes are written with a bump of the data
 *  version, so a held set is never older than the data it answers for. */
interface HeldCodes {
  version: number;
  ids: Int32Array;
  /** 16 words of 32 bits a tool. */
  words: Uint32Array;
  categories: string[];
  /** Bit i set: FACETS[i] is true. */
  flags: Uint8Array;
}

const FACETS: readonly Facet[] = ['mcp', 'free', 'paid', 'checked', 'healthy'];
const WORDS = CODE_BYTES / 4;
const held = new WeakMap<object, HeldCodes>();

function heldCodes(db: DB, h: NonNullable<ReturnType<typeof sqliteHandle>>): HeldCodes {
  const version = dataVersion(db) as number;
  const current = held.get(h);
  if (current?.version === version) return current;
  const rows = h
    .prepare<[], { id: number; code: Buffer; category: string } & Record<Facet, number>>(
      `SELECT c.id, c.code, f.category, ${FACETS.map((f) => `f.${f}`).join(', ')}
       FROM tool_codes AS c JOIN tool_facets AS f ON f.id = c.id ORDER BY c.id`,
    )
    .all();
  const codes: HeldCodes = {
    version,
    ids: Int32Array.from(rows, (r) => r.id),
    words: new Uint32Array(rows.length * WORDS),
    categories: rows.map((r) => r.category),
    flags: Uint8Array.from(rows, (r) => FACETS.reduce((bits, f, i) => bits | (r[f] ? 1 << i : 0), 0)),
  };
  rows.forEach((r, i) => codes.words.set(new Uint32Array(Uint8Array.from(r.code).buffer), i * WORDS));
  held.set(h, codes);
  return codes;
}

function ones(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
}

/**
 * The coded tool nearest to `code` (fewest differing bits; then the lowest id) among those the filters keep; none
 * when no such tool has a code yet.
 */
export async function nearestTool(db: DB, code: Uint8Array, filters: IndexFilters): Promise<number | undefined> {
  const byCategory = filters.category !== 'All';
  const h = sqliteHandle(db);
  if (h) {
    const { ids, words, categories, flags } = heldCodes(db, h);
    const conditions = facetConditions(filters);
    const must = conditions.reduce((bits, c) => bits | (1 << FACETS.indexOf(c.flag)), 0);
    const value = conditions.reduce((bits, c) => bits | (c.is ? 1 << FACETS.indexOf(c.flag) : 0), 0);
    const q = new Uint32Array(Uint8Array.from(code).buffer);
    let best: number | undefined;
    let nearest = Infinity;
    for (let i = 0; i < ids.length; i++) {
      if ((flags[i]! & must) !== value || (byCategory && categories[i] !== filters.category)) continue;
      let d = 0;
      for (let w = 0; w < WORDS; w++) d += ones(words[i * WORDS + w]! ^ q[w]!);
      if (d < nearest) [nearest, best] = [d, ids[i]];
    }
    return best;
  }
  const { rows } = await sql<{ id: number }>`SELECT c.id FROM tool_codes AS c JOIN tool_search AS s ON s.id = c.id
    WHERE ${sql.raw(facetFlags(filters))} ${byCategory ? sql`AND s.category = ${filters.category}` : sql``}
    ORDER BY bit_count(c.code # ${asBits(code)}::bit(512)), c.id LIMIT 1`.execute(db);
  return rows[0]?.id;
}
