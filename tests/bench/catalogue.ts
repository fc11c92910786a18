/**
 * A synthetic catalogue for the benchmark and the large-catalogue e2e only (never seed data): tools with the seed's shape (api/data/tools/*.json),
 * generated deterministically, and a database holding the real seed plus enough of them to reach `total` tools.
 * The site then starts on that database; its own seed step upserts the real tools by slug, which are already there.
 */
import { inTransaction, openDatabase, type DB } from '../../api/src/db/connection';
import { countRows } from '../../api/test/testDatabase';
import { seed } from '../../api/src/seed';
import { upsertTool, type ToolInput } from '../../api/src/tools/repository';

/** Every synthetic slug starts with this, so the benchmark can find what the server made from them. */
export const SYNTHETIC_SLUG_PREFIX = 'bench-tool-';

const WORDS = [
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

/** `count` tools, the same for the same `seed`; categories are taken from the real catalogue. */
export function generateTools(count: number, categories: readonly string[], seed = 42): ToolInput[] {
  let state = seed;
  const rnd = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  return Array.from({ length: count }, (_, i) => {
    const mcp = rnd() < 0.2;
    const [a, b, c] = [pick(WORDS), pick(WORDS), pick(WORDS)];
    const name = `${a[0].toUpperCase()}${a.slice(1)} ${b} ${mcp ? 'MCP Server' : 'AI'} ${i + 1}`;
    const description = `An AI ${a} tool for ${b} and ${c} workflows with ${pick(WORDS)} support.`;
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

/** Creates (migrated and seeded) the database at `path` with `total` tools in all; returns it open. */
export async function buildCatalogueDatabase(path: string, total: number): Promise<DB> {
  const db = await openDatabase(path);
  await seed(db);
  const real = await countRows(db, 'tools');
  const rows = await db
    .selectFrom('tools')
    .select('category')
    .distinct()
    .where('category', 'is not', null)
    .where('category', 'not in', ['MCP', 'MCP Servers'])
    .orderBy('category')
    .execute();
  const tools = generateTools(
    Math.max(0, total - real),
    rows.map((r) => r.category!),
  );
  await inTransaction(db, async (trx) => {
    for (const t of tools) await upsertTool(trx, t);
  });
  return db;
}
