import { useEffect } from 'react';
import { data, Link, type LoaderFunctionArgs } from 'react-router-dom';
import { defineRoute, getConfig, routeApi, ShareLink, type RouteProps } from '@aitools/platform';
import { fetchPost, type PostResult } from '../features/posts/api';
import { FALLBACK_POST, FALLBACK_SLUG } from '../features/posts/fallbackPost';
import { BLOG_TITLE, POST_NOT_FOUND_TEXT, postHead } from './head';
import { formatPostDate, calendarDay } from '../shared/dates';
import { displayCategory, type BlogPost as Post } from '../features/posts/posts';
import { PostBody } from '../features/post/PostBody';
import { TagList } from '../features/listing/PostCards';
import { CoverImage, useImageFailed } from '../shared/PostImage';
import { useOpensAtTop } from '../shared/useOpensAtTop';
import '../styles.css';

export interface BlogPostData {
  slug: string;
  /** null: not found (missing, or failed to load). */
  post: Post | null;
}

/** The post to show for an answer: the post, or the built-in one for its own slug, or none (not found). */
export function choosePost(slug: string, result: PostResult): Post | null {
  if (result.kind === 'found') return result.post;
  return slug === FALLBACK_SLUG ? FALLBACK_POST : null;
}

/** The whole article; a post that cannot be shown answers HTTP 404 with the not-found screen. */
export async function loadBlogPost({ params, context }: Pick<LoaderFunctionArgs, 'params' | 'context'>) {
  const slug = params.slug ?? '';
  const api = routeApi(context);
  const post = choosePost(slug, await fetchPost(api.fetchJson.bind(api), slug));
  const value: BlogPostData = { slug, post };
  return post ? value : data(value, { status: 404 });
}

function BlogPost({ data }: RouteProps<BlogPostData>) {
  // The shell gives each post a fresh page (keyed by address), so a new slug is a new opening.
  useOpensAtTop();
  return data.post ? <Article post={data.post} /> : <NotFound />;
}

/** Shown while an in-app navigation loads a post. */
function Loading({ params }: { params: Record<string, string | undefined> }) {
  // Only the title changes while the post loads; its page sets the whole head once it is here.
  useEffect(() => {
    document.title = `Loading ${params.slug ?? ''} | ${BLOG_TITLE}`;
  }, [params.slug]);
  return (
    <main className="blog-post">
      <div className="blog-state" role="status">
        <span className="spinner" aria-hidden="true" />
        <h1 className="blog-state__title">Loading Blog Post</h1>
      </div>
    </main>
  );
}

function NotFound() {
  return (
    <main className="blog-post blog-state">
      <h1 className="blog-state__title">Blog Post Not Found</h1>
      <p>{POST_NOT_FOUND_TEXT}</p>
      <div className="blog-state__actions">
        <Link to="/blog" className="btn btn--primary">
          Browse All Blog Posts
        </Link>
        <Link to="/" className="btn btn--ghost">
          Back to AI Tools Directory
        </Link>
      </div>
    </main>
  );
}

function FeaturedImage({ post }: { post: Post }) {
  const { ref, failed, onError } = useImageFailed(post.featuredImage);
  if (!post.featuredImage || failed) return null;
  // Its box is sized before the picture arrives (covers are 1200x675, 16:9): no layout shift when it loads.
  // The post column is at most 820 px less its padding.
  return (
    <CoverImage
      ref={ref}
      className="blog-post__image"
      src={post.featuredImage}
      sizes="(min-width: 820px) 788px, 100vw"
      alt={post.featuredImageAlt || post.title}
      width={1200}
      height={675}
      onError={onError}
    />
  );
}

function Article({ post }: { post: Post }) {
  const day = calendarDay(post.publishedAt);
  return (
    <main className="blog-post">
      <nav className="blog-post__nav" aria-label="Site sections">
        <Link to="/blog" className="btn btn--ghost btn--small">
          BLOG
        </Link>
        <Link to="/" className="btn btn--ghost btn--small">
          TOOLS
        </Link>
      </nav>
      <article className="blog-post__article">
        <header className="blog-post__header">
          <div className="blog-post__meta">
            <span className="blog-category">{displayCategory(post)}</span>
            {day && <time dateTime={day}>{formatPostDate(post.publishedAt)}</time>}
            <span>By {post.author}</span>
            <span>{post.readTime}</span>
          </div>
          <h1 className="blog-post__title">{post.title}</h1>
          {post.excerpt && <p className="blog-post__excerpt">{post.excerpt}</p>}
          <TagList tags={post.tags} max={post.tags.length} />
        </header>
        <FeaturedImage post={post} />
        <PostBody content={post.content} />
        <footer className="blog-post__footer">
          <div className="blog-post__share">
            <span id="blog-share-label">Share this article:</span>
            <ShareLink
              className="btn btn--primary btn--small"
              describedBy="blog-share-label"
              title={post.title}
              text={post.excerpt}
            />
          </div>
          <Link to="/blog" className="blog-post__back">
            ← Back to Blog
          </Link>
        </footer>
      </article>
    </main>
  );
}

export default defineRoute<BlogPostData>({
  loader: loadBlogPost,
  head: ({ data }) => postHead({ origin: getConfig().siteOrigin, slug: data.slug, post: data.post }),
  Component: BlogPost,
  Pending: Loading,
});
