import { z } from './zod';
import { blogFrontMatterSchema, POST_FIELD_MAX } from './blog';
import { isSitePath, requiredTextField, requireVisible, textField } from './fields';

/**
 * Posts as editors handle them in the console (docs/operations.md, Editing content): the fields of a post's front
 * matter and its markdown, saved as drafts while incomplete and checked in full (the seed's rules) to publish or
 * schedule. Every text field follows the shared field rules (fields.ts), as every other write path does. The console
 * imports the types only; the api checks with the schemas.
 */

export const POST_STATUSES = ['draft', 'scheduled', 'published'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

const text = (label: string, max: number) => textField({ label, max });

/** An image address: the site's own path or an https URL (what the blog shows and the CSP allows). */
const imageAddress = text('Cover image', 500).refine((s) => s === '' || isSitePath(s) || /^https:\/\/\S+$/.test(s), {
  message: 'Cover image must be a path on the site (/…) or an https address',
});

/** What a save carries: every field may still be empty in a draft but the title. */
export const postFieldsSchema = z
  .object({
    title: requiredTextField('Title', POST_FIELD_MAX.title),
    excerpt: text('Excerpt', POST_FIELD_MAX.excerpt).default(''),
    category: text('Category', POST_FIELD_MAX.category).default(''),
    tags: z
      .array(
        requireVisible(text('Tag', POST_FIELD_MAX.tag), 'A tag cannot be empty'),
      )
      .max(12, 'At most 12 tags')
      .default([]),
    author: text('Author', POST_FIELD_MAX.author).default(''),
    featured: z.boolean().default(false),
    read_time: text('Read time', 20)
      .regex(/^(\d+ min read)?$/, 'Read time is "N min read" (for example "6 min read"), or empty')
      .default(''),
    featured_image: imageAddress.default(''),
    featured_image_alt: text('Cover description', 300).default(''),
    content: textField({ label: 'Content', max: 200_000, multiline: true }).default(''),
  })
  .strict();
export type PostFields = z.infer<typeof postFieldsSchema>;

/** To publish or schedule, a post meets the rules of a seed file's front matter. */
export const publishableSchema = blogFrontMatterSchema.pick({
  title: true,
  excerpt: true,
  category: true,
  tags: true,
  author: true,
});

export const POST_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const POST_SLUG_MAX = 120;

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
