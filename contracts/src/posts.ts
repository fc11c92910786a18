import { z } from './zod';
import {
  blogFrontMatterSchema,
  POST_FIELD_MAX,
  POST_SLUG_MAX,
  POST_TAGS_MAX,
  postFieldRules,
  postTagsSchema,
} from './blog';

export { POST_SLUG, POST_SLUG_MAX } from './blog';

/**
 * Posts as editors handle them in the console (docs/operations.md, Editing content): the fields of a post's front
 * matter and its markdown, saved as drafts while incomplete and checked in full (the seed's rules) to publish or
 * schedule. Every field follows the rule a seed file's does (blog.ts postFieldRules), itself on the shared text
 * rules (fields.ts). The console imports the types only; the api checks with the schemas.
 */

export const POST_STATUSES = ['draft', 'scheduled', 'published'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** What a save carries: every field may still be empty in a draft but the title. */
export const postFieldsSchema = z
  .object({
    title: postFieldRules.title,
    excerpt: postFieldRules.excerpt.default(''),
    category: postFieldRules.category.default(''),
    tags: postTagsSchema.default([]),
    author: postFieldRules.author.default(''),
    featured: z.boolean().default(false),
    read_time: postFieldRules.read_time.default(''),
    featured_image: postFieldRules.featured_image.default(''),
    featured_image_alt: postFieldRules.featured_image_alt.default(''),
    content: postFieldRules.content.default(''),
  })
  .strict();

/**
 * The largest body a post's console call may carry (`POST /api/posts`, `/api/posts/:slug`, `/api/posts/preview`):
 * every text field at its maximum and every unit escaped as `\uXXXX` (6 bytes: what an encoder that escapes all
 * but ASCII sends; UTF-8 takes at most 3 bytes a unit), plus 4 kB for the names, punctuation and the other values.
 * Within it, a field too long is refused with that field's reason, not as a body too large.
 */
export const JSON_BYTES_PER_UNIT = 6;
export const POST_BODY_MAX_BYTES =
  JSON_BYTES_PER_UNIT *
    (POST_SLUG_MAX +
      Object.entries(POST_FIELD_MAX).reduce((sum, [name, max]) => sum + (name === 'tag' ? 0 : max), 0) +
      POST_TAGS_MAX * POST_FIELD_MAX.tag) +
  4096;
export type PostFields = z.infer<typeof postFieldsSchema>;

/** To publish or schedule, a post meets the rules of a seed file's front matter. */
export const publishableSchema = blogFrontMatterSchema.pick({
  title: true,
  excerpt: true,
  category: true,
  tags: true,
  author: true,
});

/** A post in the console's list. */
export interface PostSummary {
  slug: string;
  title: string;
  status: PostStatus;
  author: string;
  /** Publication time (a scheduled post's is to come); null for a draft never published. */
  published_at: string | null;
  updated_at: string | null;
  version: number;
}

/** One post being edited: its fields, status, publication time and the version a save must name. */
export interface EditablePost extends PostFields {
  slug: string;
  status: PostStatus;
  published_at: string | null;
  updated_at: string | null;
  version: number;
}
