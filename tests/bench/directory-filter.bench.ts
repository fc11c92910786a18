/**
 * How long one keystroke costs on the home page with 10,000 tools: filter + sort + slice of one page (24 cards),
 * the work Home does per search change. Prints median and p95; a frame is ~16.7 ms. Not a test: no assertions.
 * Run: cd tests && pnpm exec tsx bench/directory-filter.bench.ts
 */
import type { ToolSummary } from '../../api/src/contracts/tools';
import { CATEGORIES, DEFAULT_PAGE_SIZE, DEFAULT_QUERY, filterTools, queryTools, sortTools, type SortKey } from '../../api/src/contracts/toolQuery';

const WORDS = ['chat', 'code', 'image', 'video', 'audio', 'writer', 'agent', 'server', 'data', 'search', 'design', 'music', 'notes', 'sales', 'finance'];
const PRICING = ['Free', 'Freemium', 'Paid', 'Freemium, Paid'];

function generate(n: number): ToolSummary[] {
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: `${pick(WORDS)} ${pick(WORDS)} ${i}`,
    slug: `tool-${i}`,
    description: `An AI ${pick(WORDS)} tool for ${pick(WORDS)} and ${pick(WORDS)} workflows with ${pick(WORDS)} support.`,
    category: pick(CATEGORIES.slice(1)),
    tags: [pick(WORDS), pick(WORDS), rnd() < 0.2 ? 'mcp-server' : pick(WORDS)],
    pricing: pick(PRICING),
    website: `https://tool-${i}.example`,
    popularityScore: rnd() < 0.1 ? undefined : Math.round(rnd() * 100) / 10,
  }));
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const tools = generate(10_000);
// Typing "code agent" one key at a time, over each sort and a few category/type combinations.
const query = 'code agent';
const keystrokes = Array.from({ length: query.length + 1 }, (_, i) => query.slice(0, i));
const sorts: SortKey[] = ['popularity', 'alphabetical', 'pricing'];
const combos = [
  { category: 'All', type: 'all' as const },
  { category: 'Development', type: 'all' as const },
  { category: 'All', type: 'mcp-servers' as const },
];

for (let i = 0; i < 20; i++) sortTools(filterTools(tools, { search: 'co', category: 'All', type: 'all' }), 'popularity'); // warm up

const times: Record<SortKey, number[]> = { popularity: [], alphabetical: [], pricing: [] };
for (let round = 0; round < 5; round++) {
  for (const sort of sorts) {
    for (const combo of combos) {
      for (const search of keystrokes) {
        const t0 = performance.now();
        const page = sortTools(filterTools(tools, { search, ...combo }), sort).slice(0, DEFAULT_PAGE_SIZE);
        times[sort].push(performance.now() - t0);
        if (page.length > DEFAULT_PAGE_SIZE) throw new Error('unreachable');
      }
    }
  }
}

console.log(`filter + sort + slice of one page, ${tools.length.toLocaleString('en-US')} tools (frame budget 16.7 ms)`);
const all: number[] = [];
for (const sort of sorts) {
  const s = [...times[sort]].sort((a, b) => a - b);
  all.push(...s);
  console.log(`  ${sort.padEnd(12)} median ${percentile(s, 50).toFixed(2)} ms   p95 ${percentile(s, 95).toFixed(2)} ms   (${s.length} keystrokes)`);
}
all.sort((a, b) => a - b);
console.log(`  ${'overall'.padEnd(12)} median ${percentile(all, 50).toFixed(2)} ms   p95 ${percentile(all, 95).toFixed(2)} ms`);

// The API's whole answer per query (GET /api/tools/query without a search: filter, sort, page, featured list).
const answer: number[] = [];
for (let i = 0; i < 60; i++) {
  const t0 = performance.now();
  queryTools(tools, { ...DEFAULT_QUERY, ...combos[i % combos.length], sort: sorts[i % sorts.length], page: 1 + (i % 5) });
  answer.push(performance.now() - t0);
}
answer.sort((a, b) => a - b);
console.log(`  ${'queryTools'.padEnd(12)} median ${percentile(answer, 50).toFixed(2)} ms   p95 ${percentile(answer, 95).toFixed(2)} ms   (the API's work per query)`);
