/**
 * Synthetic tools for the benchmark, the large-catalogue e2e and the search's equivalence test (never seed data),
 * generated deterministically in the seed's shape (api/data/tools/*.json). Two shapes (docs/performance.md,
 * Directory search):
 * - `hard`: texts that repeat 18 words, every one sharing "workflows" and "support", so a word matches a fifth to
 *   all of the catalogue: the hard case for a ranking, kept as its own row;
 * - `registry`: shaped like the MCP registry's server.json records (a reverse-DNS name, a short description of what
 *   the server does): words from a vocabulary of 20,000 drawn by Zipf's law (the seed's own words most common, then
 *   made-up product and domain words), so a common word is in a few percent of the tools and most are rare.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { sqliteHandle, type DB } from '../src/db/connection';
import { listToolSummaries, type ToolInput } from '../src/tools/repository';
import { codeDigest } from '../src/tools/meaning/meaning';
import { asBits, CODE_BYTES } from '../src/tools/meaning/codes';

/** Every synthetic slug starts with this, so the benchmark can find what the server made from them. */
export const SYNTHETIC_SLUG_PREFIX = 'bench-tool-';

export type CatalogueShape = 'hard' | 'registry';

const HARD_WORDS = [
  'chat',
  'code',
  'image',
  'video',
  'audio',
  'writer',
  'agent',
  'server',
  'data',
  'search',
  'design',
  'music',
  'notes',
  'sales',
  'finance',
  'github',
  'postgres',
  'claude',
];
const PRICING = ['Free', 'Freemium', 'Paid', 'Freemium, Paid'];
const VOCABULARY_SIZE = 20_000;
const SYLLABLES = ['ka', 'lo', 'mi', 'ran', 'tes', 'vor', 'zen', 'qua', 'bri', 'dex', 'fu', 'gal', 'hy', 'jo', 'nex'];

/** `count` tools of `shape`, the same for the same `seed`; categories and the registry's common words are taken
 *  from the real catalogue (`realTexts`: its names and descriptions). */
export function generateTools(
  count: number,
  categories: readonly string[],
  { shape = 'hard', realTexts = [], seed = 42 }: { shape?: CatalogueShape; realTexts?: string[]; seed?: number } = {},
): ToolInput[] {
  let state = seed;
  // The product is taken in 32-bit integers: in doubles it passes 2^53, loses its low bits, and the sequence fell
  // into a cycle of about 10,000 draws (the same few hundred tools over and over).
  const rnd = () => (state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff) / 2 ** 31;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const zipf = shape === 'registry' ? zipfSampler(vocabulary(realTexts), rnd) : () => pick(HARD_WORDS);
  return Array.from({ length: count }, (_, i) => {
    const mcp = shape === 'registry' ? rnd() < 0.8 : rnd() < 0.2;
    const [a, b, c] =
      shape === 'registry' ? [zipf(), zipf(), zipf()] : [pick(HARD_WORDS), pick(HARD_WORDS), pick(HARD_WORDS)];
    const name =
      shape === 'registry'
        ? `${a[0].toUpperCase()}${a.slice(1)} ${b}${mcp ? ' MCP' : ''} ${i + 1}`
        : `${a[0].toUpperCase()}${a.slice(1)} ${b} ${mcp ? 'MCP Server' : 'AI'} ${i + 1}`;
    const description =
      shape === 'registry'
        ? `${mcp ? 'MCP server' : 'A tool'} to ${Array.from({ length: 6 + Math.floor(rnd() * 14) }, zipf).join(' ')} with ${a} and ${b}.`
        : `An AI ${a} tool for ${b} and ${c} workflows with ${pick(HARD_WORDS)} support.`;
    return {
      name,
      slug: `${SYNTHETIC_SLUG_PREFIX}${i + 1}`,
      description,
      fullDescription: `${description}\n\n${name} helps teams with ${b} work: it connects to ${c} sources and keeps a history of every ${a} task.`,
      category: mcp ? 'MCP Servers' : pick(categories),
      tags: mcp ? ['mcp', 'mcp-server', a, b] : [a, b, c],
      website: `https://${SYNTHETIC_SLUG_PREFIX}${i + 1}.example`,
      pricing: pick(PRICING),
      keyFeatures: [`${a} automation`, `${b} integration`, `Export to ${c}`],
      popularityScore: rnd() < 0.1 ? undefined : Math.round(rnd() * 100) / 10,
      lastUpdated: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
      ...(mcp ? { mcpBadge: rnd() < 0.3 ? ('Official' as const) : ('Community' as const) } : {}),
    };
  });
}

/** The registry shape's words, most common first: the real catalogue's words by how often they occur, then made-up
 *  words (product and domain names no real text has) up to VOCABULARY_SIZE. */
function vocabulary(realTexts: string[]): string[] {
  const counts = new Map<string, number>();
  for (const text of realTexts)
    for (const w of text.toLowerCase().match(/[a-z][a-z0-9]{2,}/g) ?? []) counts.set(w, (counts.get(w) ?? 0) + 1);
  const words = [...counts].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([w]) => w);
  const made = new Set(words);
  for (let n = 0; made.size < VOCABULARY_SIZE; n++) {
    let w = '';
    for (let k = n; w.length < 2 || k > 0; k = Math.floor(k / SYLLABLES.length)) w += SYLLABLES[k % SYLLABLES.length];
    made.add(w);
  }
  return [...made];
}

/** Draws words with probability proportional to 1 / rank (Zipf, exponent 1), by inverting the cumulative sum. */
function zipfSampler(words: string[], rnd: () => number): () => string {
  const cumulative: number[] = [];
  let sum = 0;
  for (let r = 1; r <= words.length; r++) cumulative.push((sum += 1 / r));
  return () => {
    const x = rnd() * sum;
    let [lo, hi] = [0, cumulative.length - 1];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo];
  };
}

/**
 * Random codes for the generated tools, kept with their texts' digests so the search's meaning thread takes them as
 * made (api/src/tools/meaning/): the model would take about an hour of one core for 100,000 tools, and a scan's time
 * does not depend on the codes' bits. The seed's own tools are coded by the model, at the site's start or by
 * fillCodes. A random code is about 256 bits from any text's, so the guess stays among the seed's tools.
 */
export async function codeGeneratedTools(db: DB): Promise<void> {
  const generated = (await listToolSummaries(db)).filter((t) => t.slug.startsWith(SYNTHETIC_SLUG_PREFIX));
  const h = sqliteHandle(db);
  if (h) {
    const insert = h.prepare('INSERT OR REPLACE INTO tool_codes (id, digest, code) VALUES (?, ?, ?)');
    h.transaction(() => generated.forEach((t) => insert.run(t.id, codeDigest(t), randomBytes(CODE_BYTES))))();
    return;
  }
  for (let i = 0; i < generated.length; i += 1000) {
    const batch = generated.slice(i, i + 1000);
    await sql`INSERT INTO tool_codes (id, digest, code)
      SELECT * FROM unnest(${batch.map((t) => t.id)}::int[], ${batch.map(codeDigest)}::text[],
        ${batch.map(() => asBits(randomBytes(CODE_BYTES)))}::bit(512)[])
      ON CONFLICT (id) DO UPDATE SET digest = excluded.digest, code = excluded.code`.execute(db);
  }
}
