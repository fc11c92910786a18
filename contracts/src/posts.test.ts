import { describe, expect, it } from 'vitest';
import { POST_FIELD_MAX, POST_SLUG_MAX, POST_TAGS_MAX } from './blog';
import { POST_BODY_MAX_BYTES, postFieldsSchema } from './posts';

/** JSON as an encoder that escapes every non-ASCII character sends it (Python's json.dumps by default). */
const asciiJson = (value: unknown) =>
  JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe('a post save body', () => {
  it('every field at its maximum, every character escaped, fits the body limit', () => {
    const full = (max: number) => '文'.repeat(max);
    const fields = {
      title: full(POST_FIELD_MAX.title),
      excerpt: full(POST_FIELD_MAX.excerpt),
      category: full(POST_FIELD_MAX.category),
      tags: Array.from({ length: POST_TAGS_MAX }, () => full(POST_FIELD_MAX.tag)),
      author: full(POST_FIELD_MAX.author),
      featured: true,
      read_time: `${'9'.repeat(POST_FIELD_MAX.read_time - ' min read'.length)} min read`,
      featured_image: `/${full(POST_FIELD_MAX.featured_image - 1)}`,
      featured_image_alt: full(POST_FIELD_MAX.featured_image_alt),
      content: full(POST_FIELD_MAX.content),
    };
    expect(postFieldsSchema.safeParse(fields).success).toBe(true);
    const body = {
      slug: 'a'.repeat(POST_SLUG_MAX),
      fields,
      version: 1,
      action: 'schedule',
      at: '2030-01-01T00:00:00Z',
    };
    const bytes = Buffer.byteLength(asciiJson(body));
    expect(bytes).toBeGreaterThan(1_200_000);
    expect(bytes).toBeLessThanOrEqual(POST_BODY_MAX_BYTES);
  });
});
