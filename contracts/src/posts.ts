import { z } from 'zod';
import { blogFrontMatterSchema } from './blog';

/**
 * Posts as editors handle them in the console (docs/operations.md, Editing content): the fields of a post's front
 * matter and its markdown, saved as drafts while incomplete and checked in full (the seed's rules) to publish or
 * schedule. The console imports the types only; the api checks with the schemas.
 */

export const POST_STATUSES = ['draft', 'scheduled', 'published'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

const text = (max: number) => z.string().trim().max(max);

/** An image address: the site's own path or an https URL (what the blog shows and the CSP allows). */
const imageAddress = text(500).refine((s) => s === '' || /^\/(?![/\\])\S*$/.test(s) || /^https:\/\/\S+$/.test(s), {
  message: 'a path on the site (/...) or an https address',
});

/** What a save carries: every field may still be empty in a draft but the title. */
export const postFieldsSchema = z
  .object({
    title: text(200).min(1, 'a title'),
    excerpt: text(500).default(''),
    category: text(60).default(''),
    tags: z.array(text(40).min(1)).max(12).default([]),
    author: text(80).default(''),
    featured: z.boolean().default(false),
    read_time: text(20)
      .regex(/^(\d+ min read)?$/, '"N min read", or empty')
      .default(''),
    featured_image: imageAddress.default(''),
    featured_image_alt: text(300).default(''),
    content: z.string().max(200_000).default(''),
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
