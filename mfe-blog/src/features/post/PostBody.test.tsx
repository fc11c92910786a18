import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { HeadContext } from '@aitools/platform';
import * as markdown from './markdown';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { outlineLevels, PostBody } from './PostBody';

const BODY = [
  'Intro with [a site link](/tool/claude), [an external link](https://example.com), <a href="https://arxiv.org/abs/1706.03762">an HTML anchor</a>, **[a bold link](/submit)**, **bold text** and <strong>strong text</strong>.',
  '## Heading two',
  '### Heading three',
  '#### Heading four',
  '- first bullet\n- second bullet',
  '1. step one\n2. step two',
  '```json\n{ "a": 1 }\n\n{ "b": 2 }\n```',
  'Hostile: <script>alert("x")</script> <img src=x onerror=alert(1)> [bad](javascript:void0) <a href="//evil.example">proto</a>',
].join('\n\n');

function show(content: string) {
  return render(
    <MemoryRouter initialEntries={['/blog/post']}>
      <Routes>
        <Route path="/blog/post" element={<PostBody content={content} />} />
        <Route path="/tool/claude" element={<p>Claude page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('outlineLevels', () => {
  it('starts the body under the page h1 and never skips a level', () => {
    expect(outlineLevels([2, 4, 2, 3])).toEqual([2, 3, 2, 3]);
    expect(outlineLevels([1, 2, 2])).toEqual([2, 3, 3]);
    expect(outlineLevels([3, 3, 5, 6, 4])).toEqual([2, 2, 3, 4, 3]);
    expect(outlineLevels([2, 3, 4, 5, 6, 6])).toEqual([2, 3, 4, 5, 6, 6]);
    expect(outlineLevels([1, 2, 3, 4, 5, 6])).toEqual([2, 3, 4, 5, 6, 6]);
    expect(outlineLevels([])).toEqual([]);
  });
});

describe('PostBody', () => {
  it('shifts a post whose headings skip a level (## then ####)', () => {
    show('## Section\n\n#### Detail');
    expect(screen.getByRole('heading', { level: 2, name: 'Section' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3, name: 'Detail' })).toBeTruthy();
  });

  it('renders every block form', () => {
    const { container } = show(BODY);
    expect(screen.getByRole('heading', { level: 2, name: 'Heading two' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3, name: 'Heading three' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 4, name: 'Heading four' })).toBeTruthy();
    expect([...container.querySelectorAll('ul > li')].map((li) => li.textContent)).toEqual([
      'first bullet',
      'second bullet',
    ]);
    expect([...container.querySelectorAll('ol > li')].map((li) => li.textContent)).toEqual(['step one', 'step two']);
    expect(container.querySelector('pre > code')?.textContent).toBe('{ "a": 1 }\n\n{ "b": 2 }');
    expect(container.querySelectorAll('p')).toHaveLength(2);
  });

  it('renders every inline form: site links in-app, others in a new tab with noopener', () => {
    show(BODY);
    for (const name of ['an external link', 'an HTML anchor']) {
      const a = screen.getByRole('link', { name });
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toBe('noopener noreferrer');
    }
    const bold = screen.getByRole('link', { name: 'a bold link' });
    expect(bold.parentElement?.tagName).toBe('STRONG');
    expect(bold.getAttribute('href')).toBe('/submit');
    expect(bold.getAttribute('target')).toBeNull();
    expect(screen.getByText('bold text').tagName).toBe('STRONG');
    expect(screen.getByText('strong text').tagName).toBe('STRONG');
    fireEvent.click(screen.getByRole('link', { name: 'a site link' }));
    expect(screen.getByText('Claude page')).toBeTruthy();
  });

  it('shows hostile markup as text and never creates script, img or unsafe links', () => {
    const { container } = show(BODY);
    expect(container.querySelector('script, img')).toBeNull();
    expect(container.textContent).toContain('<script>alert("x")</script>');
    expect(container.textContent).toContain('<img src=x onerror=alert(1)>');
    const hrefs = [...container.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['/tool/claude', 'https://example.com', 'https://arxiv.org/abs/1706.03762', '/submit']);
    expect(screen.getByText(/bad/)).toBeTruthy();
  });

  it('renders the same markup on the server (nothing depends on the browser)', () => {
    const html = renderToString(
      <HeadContext.Provider value={{ head: null }}>
        <MemoryRouter>
          <PostBody content={BODY} />
        </MemoryRouter>
      </HeadContext.Provider>,
    );
    expect(html).toContain('<h2>Heading two</h2>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<script');
  });

  it('keeps the server HTML when hydrated: the markdown is not parsed again, site links still navigate in-app', async () => {
    const tree = (
      <MemoryRouter initialEntries={['/blog/post']}>
        <Routes>
          <Route path="/blog/post" element={<PostBody content={BODY} />} />
          <Route path="/tool/claude" element={<p>Claude page</p>} />
        </Routes>
      </MemoryRouter>
    );
    const container = document.createElement('div');
    // The shell's server render gives a head collector (entry-server.tsx); the browser's never has one.
    container.innerHTML = renderToString(<HeadContext.Provider value={{ head: null }}>{tree}</HeadContext.Provider>);
    document.body.appendChild(container);
    const serverNode = container.querySelector('h2');
    const parse = vi.spyOn(markdown, 'parseBlocks');
    const errors: unknown[] = [];
    try {
      await act(async () => void hydrateRoot(container, tree, { onRecoverableError: (e) => errors.push(e) }));
      expect(errors).toEqual([]);
      expect(parse).not.toHaveBeenCalled();
      expect(container.querySelector('h2')).toBe(serverNode);
      expect(container.textContent).toContain('<script>alert("x")</script>');
      const link = [...container.querySelectorAll('a')].find((a) => a.textContent === 'a site link')!;
      await act(async () => void fireEvent.click(link));
      expect(container.textContent).toContain('Claude page');
    } finally {
      parse.mockRestore();
      container.remove();
    }
  });
});
