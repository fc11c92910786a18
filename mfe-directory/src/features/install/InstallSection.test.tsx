import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import type { Tool } from '@aitools/api/contracts/tools';
import type { ServerJson } from '@aitools/api/contracts/mcp';
import seed from '../../../../api/data/mcp-servers.json';
import { InstallSection } from './InstallSection';

const records = seed as unknown as Record<string, ServerJson>;
const tool = (slug: string, mcpServer?: ServerJson): Tool =>
  ({ id: 1, name: 'Brave Search MCP Server', slug, description: 'd', website: 'https://example.com', ...(mcpServer ? { mcpServer } : {}) }) as Tool;

describe('InstallSection', () => {
  it('renders every client`s snippet in the server HTML, with no copy button before script', () => {
    const html = renderToString(<InstallSection tool={tool('brave-search-mcp-server', records['brave-search-mcp-server'])} />);
    for (const label of ['Claude Desktop', 'Cursor', 'VS Code', 'Claude Code']) expect(html).toContain(`<summary>${label}</summary>`);
    expect(html).toContain('claude mcp add --transport stdio');
    expect(html).toContain('&quot;BRAVE_API_KEY&quot;: &quot;&lt;BRAVE_API_KEY&gt;&quot;');
    expect(html).toContain('cursor://anysphere.cursor-deeplink/mcp/install?name=brave-search');
    expect(html).not.toContain('>Copy<');
  });

  it('adds a labelled copy button once script runs, and copies the snippet', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<InstallSection tool={tool('brave-search-mcp-server', records['brave-search-mcp-server'])} />);
    const button = await screen.findByRole('button', { name: 'Copy the Claude Code command' });
    fireEvent.click(button);
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(expect.stringMatching(/^claude mcp add /)));
    await waitFor(() => expect(within(button.parentElement!).getByRole('status').textContent).toBe('Copied!'));
  });

  it('lists the settings, optional ones included', () => {
    render(<InstallSection tool={tool('gitlab-mcp-server', records['gitlab-mcp-server'])} />);
    const table = screen.getByRole('table', { name: 'Settings' });
    expect(within(table).getByRole('rowheader', { name: 'GITLAB_PERSONAL_ACCESS_TOKEN' }).closest('tr')?.textContent).toContain('Required');
    expect(within(table).getByRole('rowheader', { name: 'GITLAB_API_URL' }).closest('tr')?.textContent).toContain('Optional');
  });

  it('renders nothing for a tool without a server record, and a pointer when the record names nothing to install', () => {
    const { container } = render(<InstallSection tool={tool('cursor')} />);
    expect(container.innerHTML).toBe('');
    render(<InstallSection tool={tool('serena-mcp-server', records['serena-mcp-server'])} />);
    expect(screen.getByRole('link', { name: 'its website' }).getAttribute('href')).toBe('https://github.com/oraios/serena');
  });
});
