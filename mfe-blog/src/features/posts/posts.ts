import type { BlogPostDoc } from '@aitools/contracts/blog';
import { postCoverPath } from '@aitools/contracts/images';

/** A post as the blog screens use it: every default and fallback of docs/product.md (Post data) already applied. */
export interface BlogPost {
  slug: string;
  title: string;
  /** Excerpt, else description, else ''. */
  excerpt: string;
  content: string;
  category: string;
  tags: string[];
  /** The date as written (YYYY-MM-DD or ISO), '' when unknown. */
  publishedAt: string;
  featured: boolean;
  /** The post's own image, else its generated cover (/covers/<slug>.png). */
  featuredImage: string;
  featuredImageAlt: string;
  author: string;
  readTime: string;
}

/** The list carries no bodies: they would double the page's weight for nothing. */
export type BlogPostSummary = Omit<BlogPost, 'content'>;

const DEFAULT_AUTHOR = 'AI Tools Team';
const DEFAULT_READ_TIME = '5 min read';
const WORDS_PER_MINUTE = 200;

/** "N min read" at 200 words per minute, rounded up; empty content gives the default. */
export function computeReadTime(content: string): string {
  const words = content.split(/\s+/).filter(Boolean).length;
  if (words === 0) return DEFAULT_READ_TIME;
  return `${Math.ceil(words / WORDS_PER_MINUTE)} min read`;
}

/** Tags come as a list or as a JSON string of a list; anything else is no tags. */
export function parseTags(tags: unknown): string[] {
  let value = tags;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  return Array.isArray(value)
    ? value.filter((t): t is string => typeof t === 'string' && t.trim() !== '').map((t) => t.trim())
    : [];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function authorName(author: BlogPostDoc['author']): string {
  if (typeof author === 'string') return author.trim() || DEFAULT_AUTHOR;
  if (author && typeof author === 'object') return text(author.name) || DEFAULT_AUTHOR;
  return DEFAULT_AUTHOR;
}

export function normalizePost(doc: BlogPostDoc): BlogPost {
  const content = text(doc.content);
  const slug = text(doc.slug);
  const title = text(doc.title);
  return {
    slug,
    title,
    excerpt: text(doc.excerpt) || text(doc.description),
    content,
    category: text(doc.category),
    tags: parseTags(doc.tags),
    publishedAt: text(doc.published_at) || text(doc.publishedAt),
    featured: doc.featured === true,
    // A post with a real image keeps it; every other post shows the cover the server draws for it.
    featuredImage:
      text(doc.featured_image) || (slug && title ? postCoverPath({ slug, title, category: text(doc.category) }) : ''),
    featuredImageAlt: text(doc.featured_image_alt),
    author: authorName(doc.author),
    readTime: text(doc.read_time) || text(doc.readTime) || (content ? computeReadTime(content) : DEFAULT_READ_TIME),
  };
}

export function toSummary({ content: _content, ...summary }: BlogPost): BlogPostSummary {
  return summary;
}

/** The category a card shows: its category, else its first tag, else "Technology". */
export function displayCategory(post: Pick<BlogPost, 'category' | 'tags'>): string {
  return post.category || post.tags[0] || 'Technology';
}
