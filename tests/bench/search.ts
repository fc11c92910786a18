/**
 * The search section of `pnpm bench` (docs/performance.md, Directory search): the labelled task queries
 * (tests/search/labelled.json) answered at 156, 10,000 and 100,000 tools on SQLite and on Postgres by this build's
 * search (api/src/tools/search.ts), the landed build's rule (the whole text contained in name, description or MCP
 * tool names, by popularity: the contains-match contracts/toolQuery.ts still runs for the browser's built-in list)
 * and the plain baseline (the engine's default ranking of the words). Figures only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DB } from '../../api/src/db/connection';
import { testDatabaseLocation } from '../../api/test/testDatabase';
import { listToolSummaries } from '../../api/src/tools/repository';
import { findTools } from '../../api/src/tools/search';
import { syncSearchIndex } from '../../api/src/tools/searchIndex';
import { plainBaseline, qualityOf, readLabelledSet, type LabelledQuery } from '../../api/test/searchQuality';
import { DEFAULT_QUERY, queryTools } from '../../contracts/src/toolQuery';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../e2e/harness';
import { buildCatalogueDatabase } from './catalogue';
import { summarize } from './stats';
import { fig, whole, type Row } from './table';

/** SEARCH_ENGINES: which engines to measure (default both). */
const ENGINES = (process.env.SEARCH_ENGINES ?? 'sqlite,postgres').split(',');

type Ranker = (db: DB, text: string) => Promise<string[]>;

const RANKERS: [string, Ranker][] = [
  ['this build', async (db, text) => (await findTools(db, text)).map((t) => t.slug)],
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
  const answers = [];
  const times: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    const slugs = await ranker(db, q.query);
    times.push(performance.now() - t0);
    answers.push({ q, slugs });
  }
  const all = qualityOf(answers);
  const other = qualityOf(answers.filter((a) => a.q.otherWords));
  const t = summarize(times);
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  return fig(
    `success@5 ${all.successAt5.toFixed(2)} (other words ${other.successAt5.toFixed(2)}) · nDCG@10 ${all.ndcgAt10.toFixed(2)} (${other.ndcgAt10.toFixed(2)}) · no result ${pct(all.zeroResults)} · p50 ${t.median.toFixed(1)} ms · p95 ${t.p95.toFixed(1)} ms`,
    { all, other, time: t },
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
    for (const size of sizes) {
      const engines: [string, () => Promise<DB>][] = ENGINES.includes('sqlite')
        ? [['SQLite', () => buildCatalogueDatabase(join(dir, `search-${size}.sqlite`), size)]]
        : [];
      // A fresh schema per size on the one cluster (api/test/testDatabase.ts reads the server from TEST_DATABASE_URL).
      if (pg && ENGINES.includes('postgres'))
        engines.push(['Postgres', async () => buildCatalogueDatabase(await testDatabaseLocation(), size)]);
      for (const [engine, open] of engines) {
        log(`search: ${whole(size)} tools on ${engine} (building the catalogue)`);
        const db = await open();
        try {
          await syncSearchIndex(db);
          for (const [name, ranker] of RANKERS) {
            log(`search: ${whole(size)} tools on ${engine}, ${name}`);
            const what = `${queries.length} task queries at ${whole((await listToolSummaries(db)).length)} tools, ${engine}, ${name}`;
            const cell = await measure(db, ranker, queries);
            log(`search: ${what}: ${cell.text}`);
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
