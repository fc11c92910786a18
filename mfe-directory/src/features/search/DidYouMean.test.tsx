import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { ToolSummary } from '@aitools/contracts/tools';
import { didYouMean } from '@aitools/contracts/didYouMean';
import { DidYouMean } from './DidYouMean';

const t = (name: string, tags: string[] = [], description = ''): ToolSummary => ({
  id: 1,
  name,
  slug: name,
  description,
  tags,
  website: 'https://x.example',
});
const TOOLS = [
  t('GitHub MCP Server', ['github', 'git']),
  t('GitLab MCP Server', ['gitlab']),
  t('PostgreSQL MCP Server', ['postgresql', 'database']),
  t('Claude', ['assistant']),
  t('Notion', ['notes'], 'All-in-one workspace'),
];

describe('didYouMean', () => {
  it('offers the closest names for common typos', () => {
    expect(didYouMean('githb', TOOLS)[0]).toBe('GitHub');
    expect(didYouMean('postgress', TOOLS)).toContain('PostgreSQL');
    expect(didYouMean('calude', TOOLS)).toEqual(['Claude']);
    expect(didYouMean('githb server', TOOLS)[0]).toBe('GitHub');
  });

  it('offers nothing for short, unrelated or exact text, and only suggestions that find something', () => {
    expect(didYouMean('gi', TOOLS)).toEqual([]);
    expect(didYouMean('zzzzzz', TOOLS)).toEqual([]);
    // "notes" is a tag no name or description contains: suggesting it would find nothing.
    expect(didYouMean('notez', TOOLS)).not.toContain('notes');
  });
});

describe('DidYouMean', () => {
  it('links each suggestion to the home page search', () => {
    render(
      <MemoryRouter>
        <DidYouMean suggestions={didYouMean('githb', TOOLS)} />
      </MemoryRouter>,
    );
    expect(screen.getByText(/Did you mean/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'GitHub' }).getAttribute('href')).toBe('/?search=GitHub');
  });

  it('renders nothing without suggestions', () => {
    const { container } = render(
      <MemoryRouter>
        <DidYouMean suggestions={didYouMean('zzzzzz', TOOLS)} />
      </MemoryRouter>,
    );
    expect(container.innerHTML).toBe('');
  });
});
