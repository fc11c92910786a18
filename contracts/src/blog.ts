import { z } from './zod';
import type { Success } from './answers';
import { isSitePath, requireVisible, textField } from './fields';

/**
 * Blog post shapes shared by the API and the blog remote (docs/product.md, Post data).
 * Pure TypeScript + zod: no server imports, so the remote can import the types.
 */

/** The longest each text field of a post may be (UTF-16 units), in the seed's files and in the console alike. */
export const POST_FIELD_MAX = {
  title: 200,
  excerpt: 500,
  category: 60,
  tag: 40,
  author: 80,
  read_time: 20,
  featured_image: 500,
  featured_image_alt: 300,
  content: 200_000,
} as const;
export const POST_TAGS_MAX = 12;

export const POST_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const POST_SLUG_MAX = 120;

/** A post's address. */
export const postSlugSchema = z
  .string()
  .max(POST_SLUG_MAX, `Address must be ${POST_SLUG_MAX} characters or less`)
  .regex(POST_SLUG, 'Address must be lowercase words (a-z, 0-9) joined by hyphens');
/** The address of a post to be made (a seed file's, a new one in the console): not one the console keeps. */
export const newPostSlugSchema = postSlugSchema.refine(
  (s) => s !== 'preview',
  'Address "preview" is kept by the console for itself',
);

const text = (label: string, max: number) => textField({ label, max });

/** One rule per field of a post, for the seed's files (below) and the console's saves (posts.ts) alike. Each may
 *  be empty unless the schema using it requires it. */
export const postFieldRules = {
  title: requireVisible(text('Title', POST_FIELD_MAX.title), 'Title is required'),
  excerpt: text('Excerpt', POST_FIELD_MAX.excerpt),
  category: text('Category', POST_FIELD_MAX.category),
  tag: requireVisible(text('Tag', POST_FIELD_MAX.tag), 'A tag cannot be empty'),
  author: text('Author', POST_FIELD_MAX.author),
  read_time: text('Read time', POST_FIELD_MAX.read_time).regex(
    /^(\d+ min read)?$/,
    'Read time is "N min read" (for example "6 min read"), or empty',
  ),
  /** The site's own path or an https URL (what the blog shows and the CSP allows). */
  featured_image: text('Cover image', POST_FIELD_MAX.featured_image).refine(
    (s) => s === '' || isSitePath(s) || /^https:\/\/\S+$/.test(s),
    { message: 'Cover image must be a path on the site (/…) or an https address' },
  ),
  featured_image_alt: text('Cover description', POST_FIELD_MAX.featured_image_alt),
  content: textField({ label: 'Content', max: POST_FIELD_MAX.content, multiline: true }),
};

const tagsRule = z.array(postFieldRules.tag).max(POST_TAGS_MAX, `At most ${POST_TAGS_MAX} tags`);

/** Front matter of api/data/blog/*.md; the seed step rejects a file that does not match. What a reader sees is
 *  required, as to publish in the console (posts.ts publishableSchema). */
export const blogFrontMatterSchema = z.object({
  title: postFieldRules.title,
  slug: newPostSlugSchema,
  excerpt: requireVisible(postFieldRules.excerpt, 'Excerpt is required'),
  description: text('Description', POST_FIELD_MAX.excerpt).optional(),
  category: requireVisible(postFieldRules.category, 'Category is required'),
  tags: tagsRule.min(1, 'At least one tag is required'),
  author: requireVisible(postFieldRules.author, 'Author is required'),
  published_at: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}/, 'a date, YYYY-MM-DD')
    .refine((s) => !Number.isNaN(Date.parse(s)), 'a real date'),
  featured: z.boolean().default(false),
  read_time: postFieldRules.read_time.optional(),
  featured_image: postFieldRules.featured_image.optional(),
  featured_image_alt: postFieldRules.featured_image_alt.optional(),
  status: z.enum(['published', 'draft']).default('published'),
});
/** A post's tags, as the console saves them (a draft may have none yet). */
export const postTagsSchema = tagsRule;
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
