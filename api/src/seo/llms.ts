/**
 * /llms.txt for agents that read rather than call (docs/mcp.md, The site's own MCP server): the site in the llms.txt
 * proposal's shape (a title, a one-line summary, then sections of links), generated from the data: every page of
 * the route table, every MCP server, the most popular AI tools, the newest posts, and the machine-readable ends.
 */
import { SITE_FEEDS } from '@aitools/platform/head-tags';
import { postPath, staticPaths, toolPath } from '@aitools/platform/routes';
import { filterToolType, queryTools, readToolQuery } from '@aitools/contracts/toolQuery';
import type { ToolSummary } from '@aitools/contracts/tools';
import type { BlogPostDoc } from '@aitools/contracts/blog';

/** What each page of the route table is, for a reader who has not opened it. */
const PAGES: Record<string, string> = {
  '/': 'Directory: search AI tools and MCP servers by task, category, type and pricing',
  '/blog': 'Blog: articles on AI tools and MCP',
  '/submit': 'Submit a tool or MCP server for review',
  '/advertise': 'Advertise in the directory',
  '/contact': 'Contact the editors',
  '/privacy': 'Privacy policy',
  '/terms': 'Terms of use',
  '/cookies': 'Cookie policy',
};
/** The legal pages go under the proposal's "Optional" section: a reader with little room may skip them. */
const OPTIONAL = new Set(['/privacy', '/terms', '/cookies', '/advertise']);
/** AI tools named, most popular first (every MCP server is named). */
export const LLMS_POPULAR_TOOLS = 30;
export const LLMS_POSTS = 10;

const link = (title: string, url: string, about?: string) =>
  `- [${title.replace(/[[\]]/g, '')}](${url})${about ? `: ${about.replace(/\s+/g, ' ').trim()}` : ''}`;

export function llmsTxt(origin: string, tools: ToolSummary[], posts: BlogPostDoc[]): string {
  const page = (path: string) => origin + (path === '/' ? '/' : path);
  // The home page's own order (most popular first), through its query.
  const ranked = queryTools(tools, { ...readToolQuery(new URLSearchParams()), size: tools.length || 1 }).tools;
  const servers = ranked.filter((t) => filterToolType(t) === 'MCP Servers');
  const aiTools = ranked.filter((t) => filterToolType(t) !== 'MCP Servers').slice(0, LLMS_POPULAR_TOOLS);
  const paths = staticPaths();
  return [
    '# AI Tools Directory',
    '',
    `> A directory of ${tools.length} AI tools and MCP servers, each with its pricing and features; every MCP server with install snippets for Claude Desktop, Cursor, VS Code and Claude Code. With a blog.`,
    '',
    `Agents can ask the directory directly: its MCP server at ${origin}/mcp (Streamable HTTP, read-only, no sign-in) offers search_tools, get_tool, list_categories and recent_posts.`,
    '',
    '## Pages',
    ...paths.filter((p) => !OPTIONAL.has(p)).map((p) => link(PAGES[p] ?? p, page(p))),
    '',
    '## For agents',
    link('MCP server', `${origin}/mcp`, 'Streamable HTTP endpoint (POST), read-only'),
    link(
      'MCP registry API',
      `${origin}/v0.1/servers`,
      'every MCP server as server.json records, the official registry read API',
    ),
    link('Directory query', `${origin}/api/tools/query?search=`, 'JSON: the home page search'),
    ...SITE_FEEDS.map((f) => link(f.title, origin + f.path, 'Atom feed')),
    link('Sitemap', `${origin}/sitemap.xml`),
    '',
    '## MCP servers',
    ...servers.map((t) => link(t.name, origin + toolPath(t.slug), t.description)),
    '',
    '## Popular AI tools',
    ...aiTools.map((t) => link(t.name, origin + toolPath(t.slug), t.description)),
    '',
    '## Newest blog posts',
    ...posts
      .slice(0, LLMS_POSTS)
      .map((p) => link(p.title, origin + postPath(p.slug), p.excerpt ?? p.description ?? '')),
    '',
    '## Optional',
    ...paths.filter((p) => OPTIONAL.has(p)).map((p) => link(PAGES[p] ?? p, page(p))),
    '',
  ].join('\n');
}
