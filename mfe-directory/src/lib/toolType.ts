/** SPEC section 5 gives two readings of a tool's type; each is used where the spec puts it. */
export type ToolType = 'AI Tool' | 'MCP Servers';

interface Typed {
  category?: string;
  tags?: string[];
}

/** Card badge reading: MCP/MCP Servers category; with no category, a tag containing "mcp" or "server". */
export function cardToolType(tool: Typed | null | undefined): ToolType {
  if (!tool) return 'AI Tool';
  if (tool.category) return tool.category === 'MCP' || tool.category === 'MCP Servers' ? 'MCP Servers' : 'AI Tool';
  return (tool.tags ?? []).some((t) => /mcp|server/i.test(t)) ? 'MCP Servers' : 'AI Tool';
}

/** Directory filter reading: category MCP Servers or MCP, or the tag "mcp-server". */
export function filterToolType(tool: Typed): ToolType {
  if (tool.category === 'MCP Servers' || tool.category === 'MCP') return 'MCP Servers';
  return (tool.tags ?? []).some((t) => t.toLowerCase() === 'mcp-server') ? 'MCP Servers' : 'AI Tool';
}
