import { describe, expect, it } from 'vitest';
import { checkToolEdit, taxonomyRenameSchema } from './toolEdit';

const valid = {
  name: 'Cursor',
  slug: 'cursor',
  description: 'An AI code editor.',
  website: 'https://cursor.com',
  category: 'Development',
  pricing: 'Freemium',
  tags: ['coding'],
};

describe('a tool edit', () => {
  it('accepts a tool as its page shows it; blank optional fields are left out', () => {
    const r = checkToolEdit({ ...valid, fullDescription: '', logo: '/images/logos/cursor.svg', mcpServer: null });
    expect(r).toEqual({ success: true, data: { ...valid, logo: '/images/logos/cursor.svg', mcpServer: null } });
  });

  it('refuses each bad field with its reason', () => {
    const r = checkToolEdit({
      ...valid,
      slug: 'Not A Slug',
      website: 'ftp://x.example',
      tags: ['AI', 'ai'],
      logo: 'javascript:alert(1)',
      mcpBadge: 'Gold',
      extra: true,
    });
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(Object.keys(r.fieldErrors).sort()).toEqual(['form', 'logo', 'mcpBadge', 'slug', 'tags', 'website']);
    expect(r.fieldErrors.slug).toMatch(/lowercase letters and digits/);
    expect(r.fieldErrors.tags).toBe('A tag is listed twice');
  });

  it('a tag renamed or merged keeps to the tag length', () => {
    expect(taxonomyRenameSchema.safeParse({ kind: 'category', from: 'A', to: 'x'.repeat(60) }).success).toBe(true);
    expect(taxonomyRenameSchema.safeParse({ kind: 'tag', from: 'a', to: 'x'.repeat(41) }).success).toBe(false);
  });
});
