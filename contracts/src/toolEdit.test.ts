import { describe, expect, it } from 'vitest';
import { checkToolEdit, taxonomyRenameSchema } from './toolEdit';
import { reasonField } from './fields';
import { postFieldsSchema } from './posts';

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

  it('takes text with nothing a reader can see (a blank braille cell, a lone accent) as no text', () => {
    for (const blank of ['\u2800', '\u0301']) {
      const r = checkToolEdit({ ...valid, company: blank });
      expect(r.success && r.data.company, blank).toBeUndefined();
      expect(reasonField().safeParse(blank).success, blank).toBe(false);
      const post = postFieldsSchema.safeParse({ title: blank, tags: [blank] });
      expect(post.success, blank).toBe(false);
      expect(post.error?.issues.map((i) => i.message).sort(), blank).toEqual([
        'A tag cannot be empty',
        'Title is required',
      ]);
    }
  });

  it('takes a logo on the site or on the web, never one another site would give (//host, /\\host)', () => {
    for (const [logo, ok] of [
      ['/images/logos/cursor.svg', true],
      ['https://cursor.com/logo.png', true],
      ['//evil.example/x.png', false],
      ['/\\evil.example/x.png', false],
    ] as const)
      expect(checkToolEdit({ ...valid, logo }).success, logo).toBe(ok);
  });

  it('a tag renamed or merged keeps to the tag length', () => {
    expect(taxonomyRenameSchema.safeParse({ kind: 'category', from: 'A', to: 'x'.repeat(60) }).success).toBe(true);
    expect(taxonomyRenameSchema.safeParse({ kind: 'tag', from: 'a', to: 'x'.repeat(41) }).success).toBe(false);
  });
});

describe('a tool edit of its key features, FAQs and plans', () => {
  it('stores a key feature without a description as plain text, with one as a pair', () => {
    const r = checkToolEdit({
      ...valid,
      keyFeatures: ['Agent mode', { title: ' Tab ', description: '' }, { title: 'Chat', description: 'Ask the code' }],
      faqs: [{ question: 'Is it free?', answer: 'There is a free plan.' }],
      plans: [{ name: 'Free', price: '$0', features: ['2,000 completions'] }],
    });
    expect(r.success && r.data).toMatchObject({
      keyFeatures: ['Agent mode', 'Tab', { title: 'Chat', description: 'Ask the code' }],
      faqs: [{ question: 'Is it free?', answer: 'There is a free plan.' }],
      plans: [{ name: 'Free', price: '$0', features: ['2,000 completions'], highlight: false }],
    });
  });

  it('accepts its own output again (a restored version is checked anew)', () => {
    const first = checkToolEdit({
      ...valid,
      keyFeatures: ['A', { title: 'B', description: 'b' }],
      plans: [{ name: 'Pro', description: 'For teams', features: [], highlight: true }],
    });
    expect(first.success).toBe(true);
    if (!first.success) return;
    expect(checkToolEdit(JSON.parse(JSON.stringify(first.data)))).toEqual(first);
  });

  it('refuses each bad entry with a reason naming the entry and its part', () => {
    const r = checkToolEdit({
      ...valid,
      keyFeatures: ['ok', { title: ' ', description: 'no title' }],
      faqs: [
        { question: 'Q1', answer: 'A1' },
        { question: 'Q2', answer: 'A2' },
        { question: 'Q3', answer: '   ' },
      ],
      plans: [
        { name: 'Pro', features: [] },
        { name: '', price: '$1' },
      ],
    });
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(r.fieldErrors).toEqual({
      'keyFeatures.1.title': 'Title is required',
      'faqs.2.answer': 'Answer is required',
      'plans.0.price': 'A plan needs a price, features or a description',
      'plans.1.name': 'Plan name is required',
    });
  });

  it('bounds the lists and their entries', () => {
    const many = checkToolEdit({ ...valid, faqs: Array.from({ length: 31 }, () => ({ question: 'q', answer: 'a' })) });
    expect(many.success || many.fieldErrors).toEqual({ faqs: 'At most 30 faqs' });
    const reasons = (edit: object) => {
      const r = checkToolEdit({ ...valid, ...edit });
      return r.success || r.fieldErrors;
    };
    const plan = { name: 'Pro', price: '$1' };
    expect(reasons({ keyFeatures: Array.from({ length: 31 }, () => 'f') })).toEqual({
      keyFeatures: 'At most 30 key features',
    });
    expect(reasons({ plans: Array.from({ length: 13 }, () => plan) })).toEqual({ plans: 'At most 12 plans' });
    expect(reasons({ plans: [{ ...plan, features: Array.from({ length: 31 }, () => 'f') }] })).toEqual({
      'plans.0.features': 'At most 30 plan features',
    });
    expect(reasons({ plans: [{ ...plan, features: ['ok', ' '] }] })).toEqual({
      'plans.0.features.1': 'A plan feature is required',
    });
    expect(reasons({ faqs: [{ question: 'q', answer: 'a', extra: 1 }] })).toEqual({
      'faqs.0': 'Unrecognized key: "extra"',
    });
    const long = checkToolEdit({ ...valid, keyFeatures: ['x'.repeat(201)] });
    expect(long.success || long.fieldErrors).toEqual({ 'keyFeatures.0.title': 'Title must be 200 characters or less' });
  });
});
