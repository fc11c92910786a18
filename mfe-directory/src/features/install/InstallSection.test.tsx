import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import type { Tool } from '@aitools/contracts/tools';
import type { ServerJson } from '@aitools/contracts/mcp';
import seed from '../../../../api/data/mcp-servers.json';
import { InstallSection, OS_STORAGE_KEY } from './InstallSection';

const records = seed as unknown as Record<string, ServerJson>;
/** The section as the tool page renders it, at `url` (the system choice reads the address). */
const section = (t: Tool, url = `/tool/${t.slug}`) => (
  <MemoryRouter initialEntries={[url]}>
    <InstallSection tool={t} />
  </MemoryRouter>
);
const tool = (slug: string, mcpServer?: ServerJson): Tool =>
  ({
    id: 1,
    name: 'Brave Search MCP Server',
    slug,
    description: 'd',
    website: 'https://example.com',
    ...(mcpServer ? { mcpServer } : {}),
  }) as Tool;

describe('InstallSection', () => {
  it('renders every client`s snippet in the server HTML, with no copy button before script', () => {
    const html = renderToString(section(tool('brave-search-mcp-server', records['brave-search-mcp-server'])));
    for (const label of ['Claude Desktop', 'Cursor', 'VS Code', 'Claude Code'])
      expect(html).toContain(`<summary>${label}</summary>`);
    expect(html).toContain('claude mcp add brave-search --transport stdio');
    expect(html).toContain('&quot;BRAVE_API_KEY&quot;: &quot;&lt;BRAVE_API_KEY&gt;&quot;');
    expect(html).toContain('cursor://anysphere.cursor-deeplink/mcp/install?name=brave-search');
    expect(html).not.toContain('>Copy<');
  });

  it('adds a labelled copy button once script runs, and copies the snippet', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(section(tool('brave-search-mcp-server', records['brave-search-mcp-server'])));
    const button = await screen.findByRole('button', { name: 'Copy the Claude Code command' });
    fireEvent.click(button);
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(expect.stringMatching(/^claude mcp add /)));
    await waitFor(() => expect(within(button.parentElement!).getByRole('status').textContent).toBe('Copied!'));
  });

  it('lists the settings, optional ones included', () => {
    render(section(tool('gitlab-mcp-server', records['gitlab-mcp-server'])));
    const table = screen.getByRole('table', { name: 'Settings' });
    expect(
      within(table).getByRole('rowheader', { name: 'GITLAB_PERSONAL_ACCESS_TOKEN' }).closest('tr')?.textContent,
    ).toContain('Required');
    expect(within(table).getByRole('rowheader', { name: 'GITLAB_API_URL' }).closest('tr')?.textContent).toContain(
      'Optional',
    );
  });

  it('renders nothing for a tool without a server record, and a pointer when the record names nothing to install', () => {
    const { container } = render(section(tool('cursor')));
    expect(container.innerHTML).toBe('');
    render(section(tool('serena-mcp-server', records['serena-mcp-server'])));
    expect(screen.getByRole('link', { name: 'its website' }).getAttribute('href')).toBe(
      'https://github.com/oraios/serena',
    );
  });

  it('renders the Windows snippets for ?os=windows on the server, with the choice marked', () => {
    const html = renderToString(
      section(
        tool('brave-search-mcp-server', records['brave-search-mcp-server']),
        '/tool/brave-search-mcp-server?os=windows',
      ),
    );
    expect(html).toContain('&quot;command&quot;: &quot;cmd&quot;');
    expect(html).toContain('-- cmd /c npx -y @modelcontextprotocol/server-brave-search');
    expect(html).toMatch(
      /<a href="\/tool\/brave-search-mcp-server\?os=windows#mcp-install-title"[^>]*aria-current="true"[^>]*>Windows<\/a>/,
    );
    const posix = renderToString(section(tool('brave-search-mcp-server', records['brave-search-mcp-server'])));
    expect(posix).not.toContain('cmd /c');
    expect(posix).toMatch(/aria-current="true"[^>]*>macOS\/Linux<\/a>/);
  });

  it('applies a chosen system in place, remembers it, and applies the remembered one on the next page', async () => {
    localStorage.removeItem(OS_STORAGE_KEY);
    const { unmount } = render(section(tool('brave-search-mcp-server', records['brave-search-mcp-server'])));
    const group = screen.getByRole('group', { name: 'Your system:' });
    fireEvent.click(within(group).getByRole('link', { name: 'Windows' }));
    expect(document.querySelector('code[data-client="claude-desktop"]')!.textContent).toContain('"cmd"');
    expect(within(group).getByRole('link', { name: 'Windows' }).getAttribute('aria-current')).toBe('true');
    expect(localStorage.getItem(OS_STORAGE_KEY)).toBe('windows');
    expect(window.location.search).toBe('?os=windows');
    unmount();
    render(section(tool('slack-mcp-server', records['slack-mcp-server'])));
    await waitFor(() => expect(document.querySelector('code[data-client="cursor"]')!.textContent).toContain('"/c"'));
    localStorage.removeItem(OS_STORAGE_KEY);
  });

  it('offers no system choice where every snippet is the same on Windows', () => {
    render(section(tool('fetch-mcp-server', records['fetch-mcp-server'])));
    expect(screen.queryByRole('group', { name: 'Your system:' })).toBeNull();
  });

  it('shows each of Cloudflare`s remotes under its own heading in every client', () => {
    const html = renderToString(section(tool('cloudflare-mcp-server', records['cloudflare-mcp-server'])));
    for (const host of ['bindings', 'observability', 'docs']) {
      expect(
        html.split(`<h3 class="mcp-install__variant">${host}.mcp.cloudflare.com/mcp (Streamable HTTP)</h3>`),
      ).toHaveLength(5);
      expect(html).toContain(
        `claude mcp add cloudflare-${host} --transport http https://${host}.mcp.cloudflare.com/mcp`,
      );
    }
  });

  it('shows the optional settings as placeholders in a variant of each snippet', () => {
    render(section(tool('mcp-atlassian-mcp-server', records['mcp-atlassian-mcp-server'])));
    const optional = document.querySelector('code[data-client="claude-desktop"][data-optional]')!;
    expect(JSON.parse(optional.textContent!).mcpServers['mcp-atlassian'].env.JIRA_URL).toBe('<JIRA_URL>');
    expect(
      JSON.parse(document.querySelector('code[data-client="claude-desktop"]:not([data-optional])')!.textContent!)
        .mcpServers['mcp-atlassian'].env,
    ).toBeUndefined();
    expect(screen.getAllByText(/With optional settings \(6\)/)).toHaveLength(4);
  });
});
