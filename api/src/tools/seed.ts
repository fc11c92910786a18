import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DB } from '../db/connection';
import { DATA_DIR } from '../paths';
import { upsertTool } from './repository';

/** Loads every data/tools/*.json array into the tools table (insert or update by slug). */
export function seedTools(db: DB, dir = join(DATA_DIR, 'tools')): number {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  let count = 0;
  db.transaction(() => {
    for (const file of files) {
      const tools = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Parameters<typeof upsertTool>[1][];
      for (const tool of tools) {
        upsertTool(db, tool);
        count++;
      }
    }
  })();
  return count;
}
