import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_QUERY, queryTools } from '@aitools/contracts/toolQuery';
import { loadTool, loadToolList, readToolList } from './loadTools';

describe('reading the tool list', () => {
  it('accepts a tools array, a data array with success, or a bare array; tags normalised', () => {
    const item = { id: 1, name: 'Pi', slug: 'pi', description: 'd', website: 'https://pi.ai', tags: '{a, b}' };
    expect(readToolList({ tools: [item] })![0].tags).toEqual(['a', 'b']);
    expect(readToolList({ success: true, data: [item] })).toHaveLength(1);
    expect(readToolList([item])).toHaveLength(1);
  });
  it("keeps an MCP server's tool names, so a search in the browser finds what the API's finds", () => {
    const items = [
      {
        id: 1,
        name: 'Playwright MCP',
        slug: 'playwright-mcp',
        description: 'Drives a browser',
        website: 'https://p.test',
        tags: [],
        mcpTools: ['browser_navigate', 7],
      },
      { id: 2, name: 'Other', slug: 'other', description: 'Nothing alike', website: 'https://o.test', tags: [] },
    ];
    const list = readToolList({ success: true, data: items })!;
    expect(list[0].mcpTools).toEqual(['browser_navigate']);
    expect(list[1]).not.toHaveProperty('mcpTools');
    const found = queryTools(list, { ...DEFAULT_QUERY, search: 'navigate' });
    expect(found.tools.map((t) => t.slug)).toEqual(['playwright-mcp']);
  });
  it("keeps an inspected server's open findings for its badge and the type=checked filter, and nothing else", () => {
    const item = (id: number, openFindings: unknown) => ({
      id,
      name: `Server ${id}`,
      slug: `server-${id}`,
      description: 'An MCP server',
      website: 'https://s.test',
      category: 'MCP Servers',
      tags: [],
      openFindings,
    });
    const list = readToolList([item(1, 2), item(2, 0), item(3, 'many'), item(4, -1)])!;
    expect(list.map((t) => t.openFindings)).toEqual([2, 0, undefined, undefined]);
    const checked = queryTools(list, { ...DEFAULT_QUERY, type: 'checked' });
    expect(checked.tools.map((t) => t.slug)).toEqual(['server-2']);
  });
  it("keeps a remote server's last health check for the type=healthy filter, and nothing else", () => {
    const item = (id: number, health: unknown) => ({
      id,
      name: `Server ${id}`,
      slug: `server-${id}`,
      description: 'An MCP server',
      website: 'https://s.test',
      category: 'MCP Servers',
      tags: [],
      health,
    });
    const list = readToolList([item(1, 'healthy'), item(2, 'unreachable'), item(3, 'fine'), item(4, undefined)])!;
    expect(list.map((t) => t.health)).toEqual(['healthy', 'unreachable', undefined, undefined]);
    const healthy = queryTools(list, { ...DEFAULT_QUERY, type: 'healthy' });
    expect(healthy.tools.map((t) => t.slug)).toEqual(['server-1']);
  });
  it('rejects other shapes and drops items without name or slug', () => {
    expect(readToolList({ data: [] })).toBeNull();
    expect(readToolList({ success: false, data: [] })).toBeNull();
    expect(readToolList('nope')).toBeNull();
    expect(readToolList(null)).toBeNull();
    expect(readToolList([{ name: 'x' }, { slug: 'y' }])).toEqual([]);
  });
  it('falls back to the 5 built-in tools with the logged messages', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const http = await loadToolList(async () => ({ ok: false, status: 503, body: null }));
    expect(http.source).toBe('fallback');
    expect(http.tools).toHaveLength(5);
    expect(log).toHaveBeenCalledWith('HTTP error! status: 503');
    const invalid = await loadToolList(async () => ({ ok: true, status: 200, body: { nope: 1 } }));
    expect(invalid.source).toBe('fallback');
    expect(log).toHaveBeenCalledWith('API response format is invalid');
    const down = await loadToolList(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(down.tools.map((t) => t.slug)).toEqual(http.tools.map((t) => t.slug));
    const ok = await loadToolList(async () => ({ ok: true, status: 200, body: { success: true, data: [] } }));
    expect(ok).toEqual({ tools: [], source: 'api' });
    log.mockRestore();
  });
  it('looks a tool up, searching the built-in list by slug on failure', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const found = await loadTool(
      async (p) => ({ ok: true, status: 200, body: { slug: 'x', name: 'X', path: p } }),
      'x',
    );
    expect(found.tool?.name).toBe('X');
    const fallback = await loadTool(async () => ({ ok: false, status: 500, body: null }), 'cursor');
    expect(fallback.tool?.name).toBe('Cursor');
    const missing = await loadTool(async () => ({ ok: false, status: 404, body: null }), 'nope');
    expect(missing).toEqual({ slug: 'nope', tool: null });
    log.mockRestore();
  });
});
