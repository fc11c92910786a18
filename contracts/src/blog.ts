import { z } from './zod';
import type { Success } from './answers';
import { requiredTextField, textField } from './fields';

/**
 * Blog post shapes shared by the API and the blog remote (docs/product.md, Post data).
 * Pure TypeScript + zod: no server imports, so the remote can import the types.
 */

/** The longest each text field of a post may be, in the seed's files and in the console alike. */
export const POST_FIELD_MAX = { title: 200, excerpt: 500, category: 60, tag: 40, author: 80 } as const;

/** Front matter of api/data/blog/*.md; the seed step rejects a file that does not match. */
export const blogFrontMatterSchema = z.object({
  title: requiredTextField('Title', POST_FIELD_MAX.title),
  slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase words joined by hyphens'),
  excerpt: requiredTextField('Excerpt', POST_FIELD_MAX.excerpt),
  description: textField({ label: 'Description', max: POST_FIELD_MAX.excerpt }).optional(),
  category: requiredTextField('Category', POST_FIELD_MAX.category),
  tags: z.array(requiredTextField('Tag', POST_FIELD_MAX.tag)).min(1, 'At least one tag is required'),
  author: requiredTextField('Author', POST_FIELD_MAX.author),
  published_at: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}/, 'a date, YYYY-MM-DD')
    .refine((s) => !Number.isNaN(Date.parse(s)), 'a real date'),
  featured: z.boolean().default(false),
  read_time: z
    .string()
    .regex(/^\d+ min read$/, '"N min read"')
    .optional(),
  featured_image: textField({ label: 'Featured image', max: 500 }).optional(),
  featured_image_alt: textField({ label: 'Image description', max: 300 }).optional(),
  status: z.enum(['published', 'draft']).default('published'),
});
export type BlogFrontMatter = z.infer<typeof blogFrontMatterSchema>;

/**
 * A post as the public API returns it. The remote also accepts older shapes: tags as a JSON string,
 * publishedAt, readTime, description instead of excerpt, author as an object with a name.
 */
export interface BlogPostDoc {
  id?: number;
  slug: string;
  title: string;
  excerpt?: string | null;
  description?: string | null;
  content?: string | null;
  category?: string | null;
  tags?: string[] | string | null;
  published_at?: string | null;
  publishedAt?: string | null;
  featured?: boolean | null;
  featured_image?: string | null;
  featured_image_alt?: string | null;
  author?: string | { name?: string | null } | null;
  read_time?: string | null;
  readTime?: string | null;
}

/** GET /api/blog/public/posts (the shape: contracts/answers.ts) */
export type BlogPostListResponse = Success<{ data: BlogPostDoc[] }>;

/** GET /api/blog/public/posts/:slug */
export type BlogPostResponse = Success<{ data: BlogPostDoc }>;

export const BLOG_POST_NOT_FOUND = 'Blog post not found';
