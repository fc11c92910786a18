import { vi } from 'vitest';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { ReactElement } from 'react';
import type { BlogPostDoc } from '@aitools/api/contracts/blog';

/** n posts, newest first, like the API returns them. Post i has category/tags chosen to exercise the chips. */
export function makeDocs(n: number): BlogPostDoc[] {
  return Array.from({ length: n }, (_, i) => ({
    slug: `post-${i}`,
    title: i === 3 ? 'Setting up an MCP server' : `Post number ${i}`,
    excerpt: i === 5 ? 'All about TOKEN costs' : `Excerpt ${i}`,
    content: `Body of post ${i}`,
    category: i % 2 === 0 ? 'AI Basics' : 'Tutorial',
    tags: i === 7 ? ['Claude', 'MCP', 'Agents', 'Extra'] : ['Claude'],
    published_at: `2026-${String(12 - Math.floor(i / 2)).padStart(2, '0')}-0${(i % 2) + 1}`,
    author: 'AI Tools Team',
    read_time: `${i + 1} min read`,
  }));
}

/** The current address, for assertions on ?page=N. */
function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{pathname + search}</output>;
}

export function renderAt(path: string, routes: { path: string; element: ReactElement }[]) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        {routes.map((r) => (
          <Route key={r.path} path={r.path} element={r.element} />
        ))}
        <Route path="*" element={<p>Elsewhere</p>} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

/** Answers fetch with the given JSON (or throws when given an Error). */
export function stubFetch(answer: (url: string) => { status: number; body: unknown } | Error) {
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const a = answer(String(input));
    if (a instanceof Error) throw a;
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
