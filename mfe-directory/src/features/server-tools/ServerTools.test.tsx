import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import type { Tool } from '@aitools/contracts/tools';
import type { McpInspection } from '@aitools/contracts/inspection';
import { ServerTools } from './ServerTools';

const base = {
  id: 1,
  name: 'Playwright',
  slug: 'playwright-mcp-server',
  description: '',
  website: 'https://x.example',
};
const inspected: McpInspection = {
  status: 'inspected',
  package: '@playwright/mcp',
  version: '0.0.83',
  inspectedAt: '2026-11-25',
  tools: [
    {
      name: 'browser_navigate',
      title: 'Navigate to a URL',
      description: 'Navigate to a URL\n\nSecond paragraph with details.',
      inputSchema: {
        type: 'object',
        properties: { url: { type: 'string', description: 'The URL to navigate to' }, wait: { type: 'boolean' } },
        required: ['url'],
      },
    },
    { name: 'browser_close', description: 'Close the page', inputSchema: { type: 'object', properties: {} } },
  ],
  prompts: [{ name: 'explain', description: 'Explains a page' }],
  resources: [],
};
const withInspection = (inspection?: McpInspection) =>
  ({ ...base, ...(inspection ? { mcpInspection: inspection } : {}) }) as unknown as Tool;

describe('ServerTools', () => {
  it('shows "Tools (N)" with each tool`s name, description and parameters, required ones marked', () => {
    render(<ServerTools tool={withInspection(inspected)} />);
    const section = screen.getByRole('region', { name: 'Tools (2)' });
    expect(within(section).getByRole('heading', { level: 3, name: /browser_navigate/ })).toBeTruthy();
    expect(within(section).getByText('Navigate to a URL', { selector: 'p' })).toBeTruthy();
    const params = within(section).getByRole('list', { name: 'Parameters of browser_navigate' });
    const items = within(params)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual(['url string required — The URL to navigate to', 'wait boolean optional']);
    expect(within(section).getByText('No parameters.')).toBeTruthy();
    expect(within(section).getByText(/@playwright\/mcp@0\.0\.83/)).toBeTruthy();
    expect(within(section).getByRole('heading', { name: 'Prompts (1)' })).toBeTruthy();
    // The rest of a long description sits in a native disclosure.
    expect(section.querySelector('details')?.textContent).toContain('Second paragraph with details.');
  });

  it('renders on the server: the HTML holds the tools with no script run', () => {
    const html = renderToString(<ServerTools tool={withInspection(inspected)} />);
    expect(html).toContain('Tools (<!-- -->2<!-- -->)');
    expect(html).toContain('<code>browser_navigate</code>');
    expect(html).toContain('The URL to navigate to');
  });

  it('says why a server was not inspected', () => {
    render(
      <ServerTools
        tool={withInspection({
          status: 'not-inspected',
          reason: 'needs credentials (BRAVE_API_KEY)',
          checkedAt: '2026-11-25',
        })}
      />,
    );
    const section = screen.getByRole('region', { name: 'Tools' });
    expect(section.textContent).toContain('Not inspected: needs credentials (BRAVE_API_KEY)');
  });

  it('names the package it ran, or the remote it asked and over which transport', () => {
    const { rerender } = render(<ServerTools tool={withInspection(inspected)} />);
    expect(screen.getByText(/^What the server itself listed/).textContent).toBe(
      'What the server itself listed when we ran @playwright/mcp@0.0.83 on 2026-11-25.',
    );
    const { package: _ran, ...asked } = inspected as Extract<McpInspection, { status: 'inspected' }>;
    rerender(
      <ServerTools tool={withInspection({ ...asked, remote: { type: 'sse', url: 'https://mcp.example.com/sse' } })} />,
    );
    expect(screen.getByText(/^What the server itself listed/).textContent).toBe(
      'What the server itself listed when we asked https://mcp.example.com/sse over SSE on 2026-11-25.',
    );
  });

  it('renders nothing for a tool without an inspection', () => {
    const { container } = render(<ServerTools tool={withInspection()} />);
    expect(container.innerHTML).toBe('');
  });
});
