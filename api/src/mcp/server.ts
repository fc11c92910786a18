/**
 * The MCP endpoint's server (docs/mcp.md, The site's own MCP server): four read-only tools with input and output
 * schemas, and a resource per tool page. Reused between requests (router.ts): its tools keep no state, and every
 * answer comes from answers.ts, so from the site's own data and nothing else.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CATEGORIES, MAX_SEARCH_LENGTH } from '@aitools/contracts/toolQuery';
import { toolPageUrl } from '../registry/router';
import type { DB } from '../db/connection';
import type { SiteMetrics } from '../metrics';
import { listToolSummaries } from '../tools/repository';
import { categoriesAnswer, pageText, postsAnswer, searchAnswer, toolAnswer } from './answers';

export const SERVER_INFO = { name: 'ai-tools-directory', title: 'AI Tools Directory', version: '1.0.0' };
export const MCP_TOOL_NAMES = ['search_tools', 'get_tool', 'list_categories', 'recent_posts'] as const;
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];
/** Results per search, and posts per answer, at most. */
export const MAX_RESULTS = 50;
const PAGE_URI = 'aitools://tool/{slug}';

const kind = z.enum(['ai-tool', 'mcp-server']);
const categories = CATEGORIES.filter((c) => c !== 'All') as [string, ...string[]];
const counted = z.object({ name: z.string(), tools: z.number().int() });
const snippet = z.object({
  client: z.enum(['claude-desktop', 'cursor', 'vscode', 'claude-code']),
  label: z.string(),
  language: z.enum(['json', 'shell']),
  variant: z.string().optional(),
  files: z.array(z.object({ system: z.string(), path: z.string() })).optional(),
  code: z.string(),
  link: z.string().optional(),
  note: z.string().optional(),
  withOptionalSettings: z.string().optional(),
});

const schemas = {
  search_tools: {
    input: {
      text: z
        .string()
        .max(MAX_SEARCH_LENGTH)
        .optional()
        .describe('What to look for, as on the home page: a name, a task ("transcribe meetings"), a tool name'),
      type: kind.optional().describe('Only AI tools or only MCP servers'),
      category: z.enum(categories).optional().describe('One of the directory categories'),
      pricing: z.enum(['free', 'paid']).optional().describe('free: Free or Freemium first; paid: a paid plan'),
      limit: z.number().int().min(1).max(MAX_RESULTS).optional().describe('Results to return (default 10)'),
    },
    output: {
      total: z.number().int().describe('Matching tools in all'),
      results: z.array(
        z.object({
          name: z.string(),
          slug: z.string(),
          type: kind,
          category: z.string(),
          pricing: z.string(),
          description: z.string(),
          url: z.string().describe("The tool's page"),
        }),
      ),
      suggestions: z
        .array(z.string())
        .optional()
        .describe(
          'Only when nothing matched: texts close to it that find tools in the whole directory (search them without the filters, as the home page links them)',
        ),
    },
  },
  get_tool: {
    input: {
      slug: z
        .string()
        .min(1)
        .max(200)
        .describe('A slug (as in /tool/<slug> or search_tools results) or an MCP registry name (io.github.owner/name)'),
    },
    output: {
      name: z.string(),
      slug: z.string(),
      type: kind,
      url: z.string(),
      website: z.string(),
      description: z.string(),
      fullDescription: z.string().optional(),
      category: z.string(),
      tags: z.array(z.string()),
      pricing: z.string(),
      plans: z.array(z.object({ name: z.string(), price: z.string().optional(), features: z.array(z.string()) })),
      company: z.string().optional(),
      keyFeatures: z.array(z.string()),
      mcpServer: z
        .object({
          registryName: z.string(),
          version: z.string().optional(),
          offers: z.union([
            z.object({
              tools: z.array(z.object({ name: z.string(), description: z.string() })),
              prompts: z.array(z.string()),
              resources: z.array(z.string()),
            }),
            z.object({ notInspected: z.string() }),
          ]),
          // The checks of its page and of /v0.1's _meta (docs/mcp.md, "Checks").
          checks: z
            .object({
              open: z.number().int(),
              findings: z.array(
                z.object({
                  rule: z.string(),
                  severity: z.string(),
                  where: z.string(),
                  text: z.string(),
                  dismissed: z.object({ reason: z.string(), at: z.string() }).optional(),
                }),
              ),
              license: z.object({
                status: z.string(),
                expression: z.string().optional(),
                declared: z.string().optional(),
              }),
              health: z
                .object({
                  last: z.object({
                    at: z.string(),
                    status: z.string(),
                    ms: z.number().optional(),
                    detail: z.string().optional(),
                  }),
                  checks30d: z.number().int(),
                  uptime30d: z.number(),
                  medianMs: z.number().optional(),
                  failingSince: z.string().optional(),
                })
                .optional(),
            })
            .optional(),
          install: z.object({ macosLinux: z.array(snippet), windows: z.array(snippet) }),
        })
        .optional(),
    },
  },
  list_categories: {
    input: {},
    output: { total: z.number().int(), categories: z.array(counted), tags: z.array(counted) },
  },
  recent_posts: {
    input: { limit: z.number().int().min(1).max(MAX_RESULTS).optional().describe('Posts to return (default 10)') },
    output: {
      posts: z.array(
        z.object({
          title: z.string(),
          slug: z.string(),
          url: z.string(),
          publishedAt: z.string(),
          excerpt: z.string(),
        }),
      ),
    },
  },
} as const;

const about: Record<McpToolName, { title: string; description: string }> = {
  search_tools: {
    title: 'Search the directory',
    description:
      'Finds AI tools and MCP servers with the same search and ranking as the home page, each with its page address.',
  },
  get_tool: {
    title: 'A tool or MCP server',
    description:
      'One tool or MCP server: its facts, pricing, the tools it offers and, for an MCP server, the install snippets its page shows (Claude Desktop, Cursor, VS Code, Claude Code; macOS/Linux and Windows).',
  },
  list_categories: {
    title: 'Categories and tags',
    description: 'The directory categories and tags, each with how many tools it has.',
  },
  recent_posts: { title: 'Recent blog posts', description: "The blog's newest published posts with their addresses." },
};

export interface McpDeps {
  db: DB;
  /** The site's origin, for absolute page addresses. */
  origin: string;
  metrics?: SiteMetrics;
}

/** A tool's result: its answer as structured content, and the same JSON as text for clients that read only text. */
const result = (answer: object) => ({
  structuredContent: answer as Record<string, unknown>,
  content: [{ type: 'text' as const, text: JSON.stringify(answer) }],
});

/** The slug in a page's URI, percent-decoded; a malformed escape is the client's mistake, said as one. */
function slugOf(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new McpError(ErrorCode.InvalidParams, `"${raw}" is not a slug: its percent-encoding is malformed.`);
  }
}

export function createMcpServer({ db, origin, metrics }: McpDeps): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {}, resources: {} },
    instructions:
      'The AI Tools Directory: search AI tools and MCP servers (search_tools), read one with its install snippets (get_tool), list categories and tags, and read the newest blog posts.',
  });
  /** Counts and times each call; a thrown McpError becomes the tool's error result (the SDK's rule). */
  const timed =
    <A>(tool: McpToolName, run: (args: A) => Promise<object>) =>
    async (args: A) => {
      const stop = metrics?.mcpCallSeconds.startTimer({ tool });
      try {
        const answer = result(await run(args));
        metrics?.mcpCalls.inc({ tool, result: 'ok' });
        return answer;
      } catch (err) {
        metrics?.mcpCalls.inc({ tool, result: 'error' });
        throw err;
      } finally {
        stop?.();
      }
    };
  const register = <T extends McpToolName>(tool: T, run: Parameters<typeof timed>[1]) =>
    server.registerTool(
      tool,
      {
        ...about[tool],
        // Strict: an argument the tool does not know (`query` for `text`) is refused with its name, where a
        // plain object would drop it and answer as if nothing were asked (docs/mcp.md, The directory's MCP server).
        inputSchema: z.strictObject(schemas[tool].input),
        outputSchema: schemas[tool].output,
        annotations: { title: about[tool].title, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      },
      // The SDK has validated the arguments against the input schema before this runs.
      timed(tool, run) as never,
    );
  register('search_tools', (args) => searchAnswer(db, origin, args as Parameters<typeof searchAnswer>[2]));
  register('get_tool', (args) => toolAnswer(db, origin, (args as { slug: string }).slug));
  register('list_categories', () => categoriesAnswer(db));
  register('recent_posts', (args) => postsAnswer(db, origin, (args as { limit?: number }).limit));

  server.registerResource(
    'tool-page',
    new ResourceTemplate(PAGE_URI, {
      list: async () => ({
        resources: (await listToolSummaries(db)).map((t) => ({
          uri: PAGE_URI.replace('{slug}', encodeURIComponent(t.slug)),
          name: t.slug,
          title: t.name,
          description: `${t.name}: ${toolPageUrl(origin, t.slug)}`,
          mimeType: 'text/markdown',
        })),
      }),
    }),
    { title: "A tool's page", description: "A tool's or MCP server's page as text", mimeType: 'text/markdown' },
    async (uri, { slug }) => {
      const answer = await toolAnswer(db, origin, slugOf(String(slug)));
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: pageText(answer) }] };
    },
  );
  // The SDK declares list_changed notifications once tools and resources are registered; a stateless server has no
  // stream to send them on (GET /mcp is 405), so it says it sends none.
  server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false } });
  return server;
}
