import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { Tool, ToolSummary } from '@aitools/contracts/tools';
import { SimilarTools } from './SimilarTools';

const summary = (slug: string): ToolSummary => ({
  id: 1,
  name: slug.toUpperCase(),
  slug,
  description: `${slug} description`,
  tags: [],
  website: 'https://x.example',
});

describe('SimilarTools', () => {
  it('lists the similar tools the API sent, linked to their pages', () => {
    const tool = {
      id: 1,
      name: 'A',
      slug: 'a',
      description: '',
      website: 'https://a.example',
      similar: ['b', 'c', 'd', 'e'].map(summary),
    } as Tool;
    render(
      <MemoryRouter>
        <SimilarTools tool={tool} />
      </MemoryRouter>,
    );
    const section = screen.getByRole('region', { name: 'Similar tools and alternatives' });
    const links = within(section).getAllByRole('link');
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['/tool/b', '/tool/c', '/tool/d', '/tool/e']);
  });

  it('renders nothing without similar tools (the built-in fallback list has none)', () => {
    const { container } = render(
      <MemoryRouter>
        <SimilarTools tool={{ id: 1, name: 'A', slug: 'a', description: '', website: 'https://a.example' } as Tool} />
      </MemoryRouter>,
    );
    expect(container.innerHTML).toBe('');
  });
});
