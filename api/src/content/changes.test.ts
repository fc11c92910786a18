import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/testDatabase';
import type { DB } from '../db/connection';
import { listAudit } from './audit';
import { saveChange, type EditedChange } from './changes';
import { dataVersion } from './dataVersion';
import { latestVersion, StaleVersionError } from './revisions';

/** A change of the post `slug` to `title` from version `base`; `published`: whether the public sees it. */
function titleChange(slug: string, title: string, base: number, published: boolean): EditedChange<{ title: string }> {
  return {
    kind: 'post',
    key: slug,
    base,
    body: { title },
    author: 'person:1 An editor',
    async apply(trx) {
      const row = { title, status: published ? 'published' : 'draft', published_at: null, updated_at: null, doc: '{}' };
      await trx
        .insertInto('blog_posts')
        .values({ slug, ...row } as never)
        .onConflict((oc) => oc.column('slug').doUpdateSet(row as never))
        .execute();
      return published;
    },
    audit: (version) => ({
      actor: 'person:1 An editor',
      action: 'post.save',
      target: `post ${slug}`,
      summary: `v${version}`,
    }),
  };
}

const titleOf = async (db: DB, slug: string) =>
  (await db.selectFrom('blog_posts').select('title').where('slug', '=', slug).executeTakeFirst())?.title;
const auditOf = async (db: DB, slug: string) =>
  (await listAudit(db, { target: `post ${slug}` })).entries.map((e) => e.summary);

describe('an editor change through the shared write path', () => {
  it('writes the version, the record and its audit row naming the version; the data version only when public', async () => {
    const db = await openTestDatabase();
    const start = await dataVersion(db);
    expect(await saveChange(db, titleChange('draft', 'Draft', 0, false))).toBe(1);
    expect(await titleOf(db, 'draft')).toBe('Draft');
    expect(await auditOf(db, 'draft')).toEqual(['v1']);
    expect(await dataVersion(db)).toBe(start);

    expect(await saveChange(db, titleChange('draft', 'Out', 1, true))).toBe(2);
    expect(await auditOf(db, 'draft')).toEqual(['v2', 'v1']);
    expect(await dataVersion(db)).toBe(start + 1);
  });

  it('keeps nothing of a change whose audit row cannot be written', async () => {
    const db = await openTestDatabase();
    const start = await dataVersion(db);
    const change = titleChange('lost', 'Lost', 0, true);
    const err = await saveChange(db, {
      ...change,
      audit: () => {
        throw new Error('no audit row');
      },
    }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('no audit row');
    expect(await titleOf(db, 'lost')).toBeUndefined();
    expect(await latestVersion(db, 'post', 'lost')).toBe(0);
    expect(await dataVersion(db)).toBe(start);
  });

  it('refuses a stale base with 409, writing neither the record nor an audit row', async () => {
    const db = await openTestDatabase();
    await saveChange(db, titleChange('raced', 'First', 0, false));
    const err = await saveChange(db, titleChange('raced', 'Second', 0, true)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StaleVersionError);
    expect(await titleOf(db, 'raced')).toBe('First');
    expect(await auditOf(db, 'raced')).toEqual(['v1']);
  });
});
