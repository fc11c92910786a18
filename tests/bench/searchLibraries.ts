/**
 * The search libraries the databases' engines were compared with (docs/dependencies.md, Directory search): MiniSearch
 * and Orama, each given the same documents as the index (api/src/tools/searchIndex.ts documentOf), the same field
 * weights, stemming, and the same words (stop words out, the vocabulary's other words in, searchWords.ts). Neither
 * is shipped: they run in the benchmark only, in this process's memory, one index per catalogue.
 */
import MiniSearch from 'minisearch';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import { stemmer } from 'stemmer';
import type { DB } from '../../api/src/db/connection';
import { listToolSummaries } from '../../api/src/tools/repository';
import { documentOf } from '../../api/src/tools/searchIndex';
import { searchWords } from '../../api/src/tools/searchWords';
import { offeredToolTexts } from '../../api/src/registry/inspections';

/** The index's fields and their weights (as searchIndex.ts weighs its columns). */
const BOOST = { name: 10, tags: 10, category: 4, mcp: 2, mcpText: 1.5, description: 1 };
const FIELDS = Object.keys(BOOST) as (keyof typeof BOOST)[];
/** How many results a query asks for: the home page's page. */
const LIMIT = 24;

async function documents(db: DB) {
  const [tools, mcp] = await Promise.all([listToolSummaries(db), offeredToolTexts(db)]);
  const slugs = new Map(tools.map((t) => [t.id, t.slug]));
  return { docs: tools.map((t) => documentOf(t, mcp.get(t.slug))), slugs };
}

/** The typed text as the words the directory's search reads, other words included. */
const wordsFor = (text: string) => searchWords(text).flat().join(' ');

type Ranker = (db: DB, text: string) => Promise<string[]>;

/** A ranker that builds its index once per database, logging how long that took. */
function perDatabase<I>(
  name: string,
  build: (db: DB) => Promise<I>,
  ask: (index: I, text: string) => Promise<string[]>,
) {
  const built = new WeakMap<DB, Promise<I>>();
  return (log: (line: string) => void): Ranker =>
    async (db, text) => {
      let index = built.get(db);
      if (!index) {
        const t0 = performance.now();
        index = build(db);
        built.set(db, index);
        await index;
        log(`search: ${name} index built in ${Math.round(performance.now() - t0)} ms`);
      }
      return ask(await index, text);
    };
}

export const miniSearchRanker = perDatabase(
  'MiniSearch',
  async (db) => {
    const { docs, slugs } = await documents(db);
    const index = new MiniSearch({
      fields: FIELDS,
      processTerm: (term) => stemmer(term.toLowerCase()),
    });
    index.addAll(docs);
    return { index, slugs };
  },
  async ({ index, slugs }, text) =>
    index
      .search(wordsFor(text), { boost: BOOST, prefix: (_t, i, all) => i === all.length - 1, fuzzy: 0.2 })
      .slice(0, LIMIT)
      .map((r) => slugs.get(r.id as number)!),
);

export const oramaRanker = perDatabase(
  'Orama',
  async (db) => {
    const { docs, slugs } = await documents(db);
    const index = create({
      schema: Object.fromEntries(FIELDS.map((f) => [f, 'string'])) as Record<keyof typeof BOOST, 'string'>,
      components: { tokenizer: { stemming: true, stopWords: false } },
    });
    await insertMultiple(
      index,
      docs.map((d) => ({ id: String(d.id), ...Object.fromEntries(FIELDS.map((f) => [f, d[f]])) })),
    );
    return { index, slugs };
  },
  async ({ index, slugs }, text) => {
    const found = await oramaSearch(index, { term: wordsFor(text), boost: BOOST, tolerance: 1, limit: LIMIT });
    return found.hits.map((h) => slugs.get(Number(h.id))!);
  },
);
