import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import matter from 'gray-matter';
import { inTransaction, type DB } from '../db/connection';
import { DATA_DIR } from '../paths';
import { blogFrontMatterSchema } from '@aitools/contracts/blog';
import { postFieldsSchema } from '@aitools/contracts/posts';
import { issueLines } from '@aitools/contracts/zod';
import { insertPostIfAbsent, type StoredPost } from './repository';

/** Reads one article file: validated front matter plus the markdown body. Throws naming the file when invalid. */
function readPostFile(path: string, fileName: string): StoredPost {
  const { data, content } = matter(readFileSync(path, 'utf8'));
  // YAML turns unquoted dates into Date objects; the schema expects the written date.
  const raw = {
    ...data,
    published_at: data.published_at instanceof Date ? data.published_at.toISOString().slice(0, 10) : data.published_at,
  };
  const parsed = blogFrontMatterSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`Invalid front matter in ${fileName}: ${issueLines(parsed.error, Infinity).join('; ')}`);
  }
  if (`${parsed.data.slug}.md` !== fileName)
    throw new Error(`Slug "${parsed.data.slug}" does not match the file name ${fileName}`);
  // The markdown under the same rules as an editor's in the console.
  const body = postFieldsSchema.shape.content.safeParse(content);
  if (!body.success) throw new Error(`Invalid markdown in ${fileName}: ${issueLines(body.error).join('; ')}`);
  return { ...parsed.data, content: body.data };
}

/**
 * Loads data/blog/*.md (front matter + markdown body) into blog_posts where the slug is absent: the database is the
 * posts' source of truth, so a file never replaces a post the database holds, even a newer file (docs/operations.md,
 * Editing content). Returns how many files were read.
 */
export async function seedBlog(db: DB, dir = join(DATA_DIR, 'blog')): Promise<number> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort();
  const posts = files.map((f) => readPostFile(join(dir, f), f));
  await inTransaction(db, async (trx) => {
    for (const post of posts) await insertPostIfAbsent(trx, post);
  });
  return files.length;
}
