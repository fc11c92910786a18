import { describe, expect, it } from 'vitest';
import { blogFrontMatterSchema } from './blog';
import { postFieldsSchema, publishableSchema } from './posts';

const FILE = {
  title: 'A post',
  slug: 'a-post',
  excerpt: 'What it says',
  category: 'Guides',
  tags: ['AI'],
  author: 'Editorial Team',
  published_at: '2026-01-01',
};
const reasons = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe("a seed file's front matter", () => {
  it('follows the same field rules as a post saved in the console, with the same reasons', () => {
    expect(blogFrontMatterSchema.safeParse(FILE).success).toBe(true);
    const bad = {
      tags: Array.from({ length: 20 }, (_, i) => `tag ${i}`),
      featured_image: 'javascript:alert(1)',
      read_time: `${'1'.repeat(31)} min read`,
    };
    for (const [name, value] of Object.entries(bad)) {
      const seed = reasons(blogFrontMatterSchema.safeParse({ ...FILE, [name]: value }));
      const console = reasons(postFieldsSchema.safeParse({ title: FILE.title, [name]: value }));
      expect(seed.length, name).toBeGreaterThan(0);
      expect(seed, name).toEqual(console);
    }
    // The address the console keeps for its live preview.
    expect(reasons(blogFrontMatterSchema.safeParse({ ...FILE, slug: 'preview' }))).toEqual([
      'Address "preview" is kept by the console for itself',
    ]);
  });

  it('publishing in the console asks what a seed file must have', () => {
    expect([...new Set(reasons(publishableSchema.safeParse({ ...FILE, excerpt: ' ', tags: [] })))]).toEqual([
      'Excerpt is required',
      'At least one tag is required',
    ]);
  });
});
