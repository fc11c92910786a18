import { canonicalUrl, type Head } from '@aitools/platform';
import { ALL, LIST_PATH, listHref, listView, pageHref, readListQuery } from '../features/listing/listing';
import { postSocialImagePath } from '@aitools/contracts/images';
import type { BlogPost, BlogPostSummary } from '../features/posts/posts';
import { postPath } from '@aitools/platform/routes';
import { calendarDay } from '../shared/dates';

export const BLOG_TITLE = 'AI Tools Blog';
export const BLOG_TAGLINE = 'Expert insights on AI tools, automation workflows & enterprise adoption';
const LIST_DESCRIPTION =
  'Expert insights on AI tools, automation workflows and enterprise adoption: tutorials, comparisons, strategy and MCP guides.';
const DEFAULT_POST_DESCRIPTION =
  'Read expert insights on AI tools, automation workflows and enterprise adoption on the AI Tools Blog.';
/** Structured data lists the first 10 posts (docs/product.md, Blog list). */
const JSON_LD_POSTS = 10;

/** Social tags; a page with a preview image gets its large card from Head.image instead of "summary". */
function social(title: string, description: string, type: 'website' | 'article', withImage = false) {
  return [
    { property: 'og:type', content: type },
    { property: 'og:site_name', content: BLOG_TITLE },
    ...(withImage ? [] : [{ name: 'twitter:card', content: 'summary' }]),
    { name: 'twitter:title', content: title },
    { name: 'twitter:description', content: description },
  ];
}

/**
 * The list's head for the address: the page, and the previous/next links of the view on screen (its search and
 * category kept). A filtered view names the unfiltered list as canonical. Structured data lists the first posts.
 */
export function listHead({
  origin,
  posts,
  params,
}: {
  origin: string;
  posts: BlogPostSummary[];
  params: URLSearchParams;
}): Head {
  const query = readListQuery(params);
  const { page, pages } = listView(posts, query);
  const title =
    page > 1
      ? `${BLOG_TITLE} - Page ${page} of ${pages} | AI Tools Directory`
      : `${BLOG_TITLE} | Expert Insights on AI Tools & Automation`;
  const links: Head['links'] = [];
  if (page > 1) links.push({ rel: 'prev', href: listHref({ ...query, page: page - 1 }) });
  if (page < pages) links.push({ rel: 'next', href: listHref({ ...query, page: page + 1 }) });
  const filtered = query.search !== '' || query.category !== ALL;
  return {
    title,
    description: LIST_DESCRIPTION,
    canonical: canonicalUrl(origin, filtered ? LIST_PATH : pageHref(page)),
    robots: 'index,follow',
    links,
    meta: social(title, LIST_DESCRIPTION, 'website'),
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Blog',
      name: BLOG_TITLE,
      description: BLOG_TAGLINE,
      url: canonicalUrl(origin, '/blog'),
      blogPost: posts.slice(0, JSON_LD_POSTS).map((p) => ({
        '@type': 'BlogPosting',
        headline: p.title,
        description: p.excerpt,
        url: canonicalUrl(origin, postPath(p.slug)),
        datePublished: calendarDay(p.publishedAt) ?? undefined,
        author: { '@type': 'Organization', name: p.author },
        keywords: p.tags.join(', '),
      })),
    },
  };
}

/** The list's head when its posts could not be loaded ("Error Loading Blog"). */
export function listErrorHead(): Head {
  return { title: `Error Loading Blog | ${BLOG_TITLE}`, description: LIST_DESCRIPTION, robots: 'noindex,nofollow' };
}

/** What the not-found page says, and its description. */
export const POST_NOT_FOUND_TEXT =
  'The blog post you are looking for could not be found. It may have been moved or deleted.';

/** A post's head; `post: null` is the not-found page, kept out of search engines. */
export function postHead({ origin, slug, post }: { origin: string; slug: string; post: BlogPost | null }): Head {
  if (!post) {
    return {
      title: `${slug} Blog Post Not Found | ${BLOG_TITLE}`,
      description: POST_NOT_FOUND_TEXT,
      robots: 'noindex,nofollow',
    };
  }
  const title = `${post.title} | ${BLOG_TITLE}`;
  const description = post.excerpt || DEFAULT_POST_DESCRIPTION;
  const url = canonicalUrl(origin, postPath(post.slug));
  const published = calendarDay(post.publishedAt);
  const image = canonicalUrl(origin, postSocialImagePath(post));
  return {
    title,
    description,
    canonical: url,
    robots: 'index,follow',
    image,
    meta: [
      ...social(title, description, 'article', true),
      ...(published ? [{ property: 'article:published_time', content: published }] : []),
      { property: 'article:section', content: post.category || 'Technology' },
    ],
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: post.title,
      description,
      url,
      mainEntityOfPage: url,
      datePublished: published ?? undefined,
      author: { '@type': 'Organization', name: post.author },
      keywords: post.tags.join(', '),
      image: /^https?:\/\//.test(post.featuredImage)
        ? post.featuredImage
        : post.featuredImage
          ? canonicalUrl(origin, post.featuredImage)
          : image,
    },
  };
}
