/**
 * The search section of `pnpm bench` (docs/performance.md, Directory search): the labelled task queries
 * (tests/search/labelled.json) answered at 156, 10,000 and 100,000 tools on SQLite and on Postgres by this build's
 * search (api/src/tools/search.ts), the landed build's rule (the whole text contained in name, description or MCP
 * tool names, by popularity: the contains-match contracts/toolQuery.ts still runs for the browser's built-in list)
 * the plain baseline (the engine's default ranking of the words), and for comparison two search libraries in memory
 * (searchLibraries.ts: MiniSearch and Orama, not shipped). Quality is given on the whole set, its other-words third,
 * and its development and held-out parts (docs/testing.md, Search quality). Figures only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DB } from '../../api/src/db/connection';
import { testDatabaseLocation } from '../../api/test/testDatabase';
import { listToolSummaries } from '../../api/src/tools/repository';
import { searchTools } from '../../api/src/tools/search';
import { boundedOutcomes } from '../../api/src/tools/boundedPage';
import { startMeaning, stopMeaning, syncSearchIndex } from '../../api/src/tools/searchIndex';
import { fillCodes, forgetSearchCodes } from '../../api/src/tools/meaning/meaning';
import { plainBaseline, qualityOf, readLabelledSet, type LabelledQuery } from '../../api/test/searchQuality';
import { DEFAULT_QUERY, queryTools, type ToolQuery } from '../../contracts/src/toolQuery';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../e2e/harness';
import { buildCatalogueDatabase, type CatalogueShape } from './catalogue';
import { summarize } from './stats';
import { miniSearchRanker, oramaRanker } from './searchLibraries';
import { fig, whole, type Row } from './table';

/** SEARCH_ENGINES: which engines to measure (default both). */
const ENGINES = (process.env.SEARCH_ENGINES ?? 'sqlite,postgres').split(',');
/** SEARCH_SHAPES: which generated catalogues beside the seed (api/test/generatedCatalogue.ts; default both): the
 *  hard case (18 words shared by all) and one shaped like the MCP registry (a Zipf vocabulary). */
const SHAPES = (process.env.SEARCH_SHAPES ?? 'registry,hard').split(',') as CatalogueShape[];

type Ranker = (db: DB, text: string) => Promise<string[]>;

/** The home page's first page for a search, in Best match order (what a visitor sees, and what is timed). */
const firstPage = (text: string): ToolQuery => ({ ...DEFAULT_QUERY, search: text, sort: 'relevance' });

const thisBuild: Ranker = async (db, text) => (await searchTools(db, firstPage(text))).tools.map((t) => t.slug);

/** This build with the meaning's guess (api/src/tools/meaning/), every tool coded first; each text's code made
 *  afresh, as for a visitor's new text (the codes of texts searched before are kept, 2,000 of them). */
const withMeaning: Ranker = async (db, text) => {
  forgetSearchCodes();
  startMeaning();
  try {
    return await thisBuild(db, text);
  } finally {
    stopMeaning();
  }
};

const RANKERS: [string, Ranker][] = [
  ['this build', thisBuild],
  ['this build, with the meaning guess', withMeaning],
  [
    'landed rule',
    async (db, text) =>
      queryTools(await listToolSummaries(db), { ...DEFAULT_QUERY, search: text, size: 10_000_000 }).tools.map(
        (t) => t.slug,
      ),
  ],
  ['plain baseline', plainBaseline],
];

async function measure(db: DB, ranker: Ranker, queries: LabelledQuery[]) {
  await ranker(db, 'warm up');
  const answers: { q: LabelledQuery; slugs: string[] }[] = [];
  const times: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    const slugs = await ranker(db, q.query);
    times.push(performance.now() - t0);
    answers.push({ q, slugs });
  }
  const part = (keep: (q: LabelledQuery) => boolean) => qualityOf(answers.filter((a) => keep(a.q)));
  const all = part(() => true);
  const other = part((q) => q.otherWords);
  const development = part((q) => !q.heldOut);
  const heldOut = part((q) => q.heldOut);
  const t = summarize(times);
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const measures = (m: string, of: (x: typeof all) => number) =>
    `${m} ${of(all).toFixed(2)} (other words ${of(other).toFixed(2)}, development ${of(development).toFixed(2)}, held out ${of(heldOut).toFixed(2)})`;
  return fig(
    `${measures('success@5', (x) => x.successAt5)} · ${measures('nDCG@10', (x) => x.ndcgAt10)} · no result ${pct(all.zeroResults)} · p50 ${t.median.toFixed(1)} ms · p95 ${t.p95.toFixed(1)} ms`,
    { all, other, development, heldOut, time: t },
  );
}

/** One row per catalogue size, engine and ranker. `sizes`: the catalogue sizes (156 is the seed alone). */
export async function searchRows(sizes: number[], log: (line: string) => void): Promise<Row[]> {
  const queries = readLabelledSet();
  const rows: Row[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'aitools-bench-search-'));
  const pg = ENGINES.includes('postgres') ? await startPostgres(log) : null;
  if (pg) process.env.TEST_DATABASE_URL = pg.url;
  try {
    // The seed alone has no generated tools: one shape is enough.
    for (const [size, shape] of sizes.flatMap((n) => (n <= 156 ? [SHAPES[0]] : SHAPES).map((c) => [n, c] as const))) {
      const engines: [string, () => Promise<DB>][] = ENGINES.includes('sqlite')
        ? [['SQLite', () => buildCatalogueDatabase(join(dir, `search-${size}-${shape}.sqlite`), size, shape)]]
        : [];
      // A fresh schema per size on the one cluster (api/test/testDatabase.ts reads the server from TEST_DATABASE_URL).
      if (pg && ENGINES.includes('postgres'))
        engines.push(['Postgres', async () => buildCatalogueDatabase(await testDatabaseLocation(), size, shape)]);
      for (const [e, [engine, open]] of engines.entries()) {
        // The libraries keep their own index in memory, the same whatever the database: measured once per size.
        const libraries: [string, Ranker][] = [
          ['MiniSearch (compared, not shipped)', miniSearchRanker(log)],
          ['Orama (compared, not shipped)', oramaRanker(log)],
        ];
        const catalogue = size <= 156 ? '' : ` (${shape} catalogue)`;
        log(`search: ${whole(size)} tools${catalogue} on ${engine} (building the catalogue)`);
        const db = await open();
        try {
          await syncSearchIndex(db);
          log(`search: ${whole(size)} tools${catalogue} on ${engine} (coding the seed's tools)`);
          await fillCodes(db);
          for (const [name, ranker] of [...RANKERS, ...(e === 0 ? libraries : [])]) {
            const where = libraries.some(([n]) => n === name) ? 'in memory' : engine;
            log(`search: ${whole(size)} tools${catalogue} on ${where}, ${name}`);
            const what = `${queries.length} task queries at ${whole((await listToolSummaries(db)).length)} tools${catalogue}, ${where}, ${name}`;
            const before = { ...boundedOutcomes };
            const cell = await measure(db, ranker, queries);
            // How this build's pages ended on Postgres (api/src/tools/boundedPage.ts): proven, read to the end, exact.
            const pages = Object.entries(boundedOutcomes)
              .map(([k, n]) => `${k} ${n - before[k as keyof typeof before]}`)
              .join(', ');
            log(
              `search: ${what}: ${cell.text}${engine === 'Postgres' && name === 'this build' ? ` (pages: ${pages})` : ''}`,
            );
            rows.push({ section: 'search', what, cells: { current: cell } });
          }
        } finally {
          await db.destroy();
        }
      }
    }
  } finally {
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

interface Postgres {
  url: string;
  stop: () => Promise<void>;
}

/** A throwaway Postgres cluster (scripts/postgres.mjs), or null when none is installed (its rows are then left out). */
async function startPostgres(log: (line: string) => void): Promise<Postgres | null> {
  const script = pathToFileURL(join(REPO_ROOT, 'scripts', 'postgres.mjs')).href;
  const { startPostgres: start } = (await import(script)) as { startPostgres: () => Promise<Postgres | null> };
  const pg = await start().catch((err: Error) => (log(`search: no Postgres (${err.message})`), null));
  if (!pg) log('search: no PostgreSQL server installed; the Postgres rows are left out');
  return pg;
}
