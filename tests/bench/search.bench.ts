/**
 * GET /api/tools?search= at 10,000 tools: the FTS5 trigram index (what the API uses) against a plain scan of the
 * same rows with instr(), and the cost of "did you mean" when nothing matches. Prints medians; no assertions.
 * Run: cd tests && pnpm exec tsx bench/search.bench.ts
 */
import { openDatabase } from '../../api/src/db/connection';
import { upsertTool } from '../../api/src/tools/repository';
import { listToolSummaries } from '../../api/src/tools/repository';
import { searchToolSummaries } from '../../api/src/tools/search';
import { didYouMean } from '../../api/src/contracts/didYouMean';
import { ms, summarize } from './stats';

const WORDS = ['chat', 'code', 'image', 'video', 'audio', 'writer', 'agent', 'server', 'data', 'search', 'design', 'music', 'notes', 'sales', 'finance', 'github', 'postgres', 'claude'];
const N = 10_000;
let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];

const db = openDatabase(':memory:');
db.transaction(() => {
  for (let i = 0; i < N; i++) {
    upsertTool(db, {
      slug: `tool-${i}`,
      name: `${pick(WORDS)} ${pick(WORDS)} ${i}`,
      description: `An AI ${pick(WORDS)} tool for ${pick(WORDS)} and ${pick(WORDS)} workflows with ${pick(WORDS)} support.`,
      category: 'Development',
      tags: [pick(WORDS), pick(WORDS)],
      website: `https://tool-${i}.example`,
    });
  }
})();

const scan = db.prepare(
  `SELECT id, doc FROM tools WHERE instr(lower(name), @q) > 0 OR instr(lower(coalesce(json_extract(doc, '$.description'), '')), @q) > 0 ORDER BY id`,
);
const ftsSql = db.prepare(`SELECT id, doc FROM tools WHERE id IN (SELECT rowid FROM tools_fts WHERE tools_fts MATCH ?) ORDER BY id`);
const time = (fn: () => unknown, runs = 30) => {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return summarize(samples);
};

console.log(`search over ${N.toLocaleString('en-US')} tools (median / p95)`);
for (const q of ['github', 'finance workflows', 'tool-9999', 'xyzzy']) {
  const hits = searchToolSummaries(db, q).length;
  const fts = time(() => ftsSql.all(`{name description} : "${q}"`));
  const plain = time(() => scan.all({ q: q.toLowerCase() }));
  const whole = time(() => searchToolSummaries(db, q));
  console.log(
    `  "${q}" (${hits} hits): query FTS5 trigram ${ms(fts.median)} / ${ms(fts.p95)}, instr() scan ${ms(plain.median)} / ${ms(plain.p95)}; with summaries ${ms(whole.median)}`,
  );
}
const all = listToolSummaries(db);
const dym = time(() => didYouMean('githb', all), 10);
console.log(`  did you mean "githb" -> ${didYouMean('githb', all).join(', ')}: ${ms(dym.median)} / ${ms(dym.p95)} (on a miss only)`);
