import type { DB } from './connection';
import { seedTools } from '../tools/seed';
import { seedBlog } from '../blog/seed';
import { seedMcpServers } from '../registry/seed';

/** The seed step: real tools and articles from api/data, inserted or updated by slug (safe to run again). */
export function seed(db: DB): { tools: number; posts: number; mcpServers: number } {
  return { tools: seedTools(db), posts: seedBlog(db), mcpServers: seedMcpServers(db) };
}
