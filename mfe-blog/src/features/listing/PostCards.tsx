import { Link } from 'react-router-dom';
import type { BlogPostSummary } from '../posts/posts';
import { displayCategory } from '../posts/posts';
import { calendarDay, formatNumericDate } from '../../shared/dates';
import { postPath } from '@aitools/platform/routes';
import { CardImage } from '../../shared/PostImage';

/** Up to `max` tags, then "+N more". */
export function TagList({ tags, max }: { tags: string[]; max: number }) {
  if (tags.length === 0) return null;
  const more = tags.length - max;
  return (
    <ul className="blog-tags" aria-label="Tags">
      {tags.slice(0, max).map((t) => (
        <li key={t} className="tag">
          {t}
        </li>
      ))}
      {more > 0 && <li className="tag tag--more">+{more} more</li>}
    </ul>
  );
}

function PostDate({ value }: { value: string }) {
  const day = calendarDay(value);
  return day ? <time dateTime={day}>{formatNumericDate(value)}</time> : null;
}

export function FeaturedCard({ post }: { post: BlogPostSummary }) {
  const href = postPath(post.slug);
  return (
    <article className="blog-featured" aria-labelledby="blog-featured-title">
      <div className="blog-featured__meta">
        <span className="blog-featured__badge">Featured</span>
        <PostDate value={post.publishedAt} />
        <span>{post.readTime}</span>
      </div>
      <h2 id="blog-featured-title" className="blog-featured__title">
        <Link to={href} className="quiet-link">
          {post.title}
        </Link>
      </h2>
      <p className="blog-featured__excerpt">{post.excerpt}</p>
      <div className="blog-featured__footer">
        <span className="blog-category">{displayCategory(post)}</span>
        <TagList tags={post.tags} max={2} />
      </div>
      <Link to={href} className="btn btn--primary blog-featured__cta">
        Read Full Article
      </Link>
    </article>
  );
}

export function PostCard({ post }: { post: BlogPostSummary }) {
  return (
    <article className="blog-card">
      <CardImage src={post.featuredImage} alt={post.featuredImageAlt || post.title} className="blog-card__image" />
      <div className="blog-card__body">
        <div className="blog-card__meta">
          <span className="blog-category">{displayCategory(post)}</span>
          <PostDate value={post.publishedAt} />
          <span>{post.readTime}</span>
        </div>
        <h3 className="blog-card__title">
          <Link to={postPath(post.slug)} className="quiet-link">
            {post.title}
          </Link>
        </h3>
        <p className="blog-card__excerpt">{post.excerpt}</p>
        <TagList tags={post.tags} max={3} />
      </div>
    </article>
  );
}
