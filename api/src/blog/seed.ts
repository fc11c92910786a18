import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import matter from 'gray-matter';
import type { DB } from '../db/connection';
import { DATA_DIR } from '../paths';
import { upsertPost } from './repository';

/** Loads data/blog/*.md (front matter + markdown body) into blog_posts. */
export function seedBlog(db: DB, dir = join(DATA_DIR, 'blog')): number {
  const files = readdirSync(dir).filter((f) => f.endsWith('.md')).sort();
  db.transaction(() => {
    for (const file of files) {
      const { data, content } = matter(readFileSync(join(dir, file), 'utf8'));
      const published = data.published_at instanceof Date ? data.published_at.toISOString() : (data.published_at ?? null);
      upsertPost(db, {
        ...data,
        slug: String(data.slug ?? file.replace(/\.md$/, '')),
        title: String(data.title),
        status: data.status === 'draft' ? 'draft' : 'published',
        published_at: published,
        content: content.trim(),
      });
    }
  })();
  return files.length;
}
