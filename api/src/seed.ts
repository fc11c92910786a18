import type { DB } from './db/connection';
import { seedTools } from './tools/seed';
import { seedBlog } from './blog/seed';
import { seedMcpServers } from './registry/seed';
import { seedInspections } from './registry/inspections';

/** The seed step: real tools and articles from api/data, inserted or updated by slug (safe to run again). */
export async function seed(
  db: DB,
): Promise<{ tools: number; posts: number; mcpServers: number; mcpInspections: number }> {
  return {
    tools: await seedTools(db),
    posts: await seedBlog(db),
    mcpServers: await seedMcpServers(db),
    mcpInspections: await seedInspections(db),
  };
}
