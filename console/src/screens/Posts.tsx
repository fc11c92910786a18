/** The editors' posts: every post with its status, author and dates, searched by title or address. */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { PostStatus, PostSummary } from '@aitools/contracts/posts';
import { ErrorNote, Loading } from '../components/Status';
import { Table } from '../components/Table';
import { utc } from '../format';
import { useResource } from '../useResource';

const STATUS_LABEL: Record<PostStatus, string> = { draft: 'Draft', scheduled: 'Scheduled', published: 'Published' };

const query = (search: string, status: string) => {
  const q = new URLSearchParams();
  if (search.trim()) q.set('search', search.trim());
  if (status) q.set('status', status);
  const s = q.toString();
  return `/api/posts${s ? `?${s}` : ''}`;
};

export function PostsScreen() {
  const [form, setForm] = useState({ search: '', status: '' });
  const [filters, setFilters] = useState(form);
  const list = useResource<{ posts: PostSummary[] }>(query(filters.search, filters.status));
  return (
    <>
      <h1>Posts</h1>
      <p>
        <Link to="/posts/new" className="btn btn--primary">
          New post
        </Link>
      </p>
      <form
        className="filters"
        role="search"
        aria-label="Search the posts"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters(form);
        }}
      >
        <div className="field">
          <label htmlFor="posts-search">Title or address</label>
          <input id="posts-search" value={form.search} onChange={(e) => setForm({ ...form, search: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="posts-status">Status</label>
          <select id="posts-status" value={form.status} onChange={(e) => setForm({ ...form, status: e.target.value })}>
            <option value="">Any</option>
            {Object.entries(STATUS_LABEL).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn--primary">
          Search
        </button>
      </form>
      <ErrorNote>{list.error}</ErrorNote>
      {!list.data ? (
        !list.error && <Loading what="the posts" />
      ) : list.data.posts.length === 0 ? (
        <p>No post matches.</p>
      ) : (
        <Table
          caption="Posts, most recently changed first"
          columns={['Title', 'Status', 'Author', 'Published (UTC)', 'Changed (UTC)']}
        >
          {list.data.posts.map((p) => (
            <tr key={p.slug}>
              <td>
                <Link to={`/posts/${p.slug}`}>{p.title}</Link>
              </td>
              <td>{STATUS_LABEL[p.status]}</td>
              <td>{p.author || '—'}</td>
              <td>{utc(p.published_at)}</td>
              <td>{utc(p.updated_at)}</td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}
