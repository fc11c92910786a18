/**
 * What the MCP endpoint's tools answer, from the same functions the site's pages and JSON API use: the home page's
 * query (searchTools, the ranked search GET /api/tools/query answers with, its query read by readToolQuery), a tool's details as
 * GET /api/tools/:slug assembles them, the install snippets the tool page renders, and the blog's published posts.
 */
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { parseTags } from '@aitools/contracts/tools';
import {
  CATEGORIES,
  filterToolType,
  normaliseCategory,
  readToolQuery,
  type PricingFilter,
} from '@aitools/contracts/toolQuery';
import { installSnippets, serverKey, type Snippet } from '@aitools/contracts/installSnippets';
import { inspectionForPage } from '@aitools/contracts/inspection';
import { parsePricingPlans } from '@aitools/contracts/plans';
import { postPath } from '@aitools/platform/routes';
import type { DB } from '../db/connection';
import { findTool, listToolSummaries } from '../tools/repository';
import { counted } from '../tools/taxonomy';
import { searchTools } from '../tools/search';
import { getServerByToolSlug, getServerRow, renamedTo } from '../registry/repository';
import { toolPageUrl } from '../registry/router';
import { getInspection } from '../registry/inspections';
import { checksFor } from '../checks/facts';
import { listPublishedPosts } from '../blog/repository';

export type ToolKind = 'ai-tool' | 'mcp-server';

export interface SearchInput {
  text?: string;
  type?: ToolKind;
  category?: string;
  pricing?: PricingFilter;
  limit?: number;
}

const kindOf = (t: { category?: string; tags?: string[] }): ToolKind =>
  filterToolType(t) === 'MCP Servers' ? 'mcp-server' : 'ai-tool';

/** The home page's query for the same text and filters: its address read by the route's own reader, then the
 *  result count asked for and the pricing filter beside the type. */
export async function searchAnswer(db: DB, origin: string, input: SearchInput) {
  const params = new URLSearchParams();
  if (input.text) params.set('search', input.text);
  if (input.category) params.set('category', input.category);
  if (input.type) params.set('type', input.type === 'mcp-server' ? 'mcp-servers' : 'ai-tool');
  const query = { ...readToolQuery(params), page: 1, size: input.limit ?? 10, pricing: input.pricing };
  const page = await searchTools(db, query);
  return {
    total: page.total,
    results: page.tools.map((t) => ({
      name: t.name,
      slug: t.slug,
      type: kindOf(t),
      category: normaliseCategory(t.category) ?? '',
      pricing: t.pricing ?? '',
      description: t.description,
      url: toolPageUrl(origin, t.slug),
    })),
    ...(page.suggestions?.length ? { suggestions: page.suggestions } : {}),
  };
}

/** What an inspection found the server offers (its page's Tools section), or why it was not inspected. */
type Offers =
  { tools: { name: string; description: string }[]; prompts: string[]; resources: string[] } | { notInspected: string };

/** Only what the page shows of a snippet; a client reads the same text. */
const shownSnippet = (s: Snippet) => ({
  client: s.client,
  label: s.label,
  language: s.language,
  ...(s.variant ? { variant: s.variant.label } : {}),
  ...(s.files ? { files: s.files } : {}),
  code: s.code,
  ...(s.link ? { link: s.link.href } : {}),
  ...(s.note ? { note: s.note } : {}),
  ...(s.withOptional ? { withOptionalSettings: s.withOptional.code } : {}),
});

const notFound = (what: string) =>
  new McpError(
    ErrorCode.InvalidParams,
    `No tool or MCP server in the directory has the slug or registry name "${what}".`,
  );

/** The tool of a registry name: its record's current name, or one it had before (whose /v0.1 address answers 301). */
async function slugOfName(db: DB, name: string): Promise<string | undefined> {
  const now = renamedTo(name);
  const row = (await getServerRow(db, name)) ?? (now ? await getServerRow(db, now) : null);
  return row?.tool_slug;
}

/** One tool or server by its slug or its registry name (io.github.owner/name), as its page gives it. */
export async function toolAnswer(db: DB, origin: string, slugOrName: string) {
  const slug = slugOrName.includes('/') ? await slugOfName(db, slugOrName) : slugOrName;
  const found = slug ? await findTool(db, slug) : null;
  if (!found) throw notFound(slugOrName);
  if (found.hidden) throw new McpError(ErrorCode.InvalidParams, `"${slugOrName}" was removed from the directory.`);
  const { tool } = found;
  const server = await getServerByToolSlug(db, tool.slug);
  const stored = server ? await getInspection(db, tool.slug) : null;
  const inspection = stored && inspectionForPage(stored);
  const checks = stored ? await checksFor(db, tool.slug, stored) : undefined;
  const tags = parseTags(tool.tags);
  return {
    name: tool.name,
    slug: tool.slug,
    type: kindOf({ category: tool.category, tags }),
    url: toolPageUrl(origin, tool.slug),
    website: tool.website,
    description: tool.description,
    ...(tool.fullDescription ? { fullDescription: tool.fullDescription } : {}),
    category: normaliseCategory(tool.category) ?? '',
    tags,
    pricing: tool.pricing ?? '',
    // The plans as the page's pricing section lists them.
    plans: parsePricingPlans(tool.detailedPricing).map((p) => ({
      name: p.name,
      ...(p.price ? { price: p.price } : {}),
      features: p.features,
    })),
    ...(tool.company ? { company: tool.company } : {}),
    keyFeatures: (tool.keyFeatures ?? []).map((f) =>
      typeof f === 'string' ? f : f.description ? `${f.title}: ${f.description}` : f.title,
    ),
    ...(server
      ? {
          mcpServer: {
            registryName: server.name,
            ...(server.version ? { version: server.version } : {}),
            offers: (inspection?.status === 'inspected'
              ? {
                  tools: inspection.tools.map((t) => ({ name: t.name, description: t.description ?? '' })),
                  prompts: inspection.prompts.map((p) => p.name),
                  resources: inspection.resources.map((r) => r.uri),
                }
              : {
                  notInspected: inspection?.status === 'not-inspected' ? inspection.reason : 'not inspected yet',
                }) as Offers,
            ...(checks
              ? {
                  checks: {
                    open: checks.open,
                    findings: checks.findings,
                    license: checks.license,
                    ...(checks.health ? { health: checks.health } : {}),
                  },
                }
              : {}),
            install: {
              macosLinux: installSnippets(server, serverKey(tool.slug), 'posix').map(shownSnippet),
              windows: installSnippets(server, serverKey(tool.slug), 'windows').map(shownSnippet),
            },
          },
        }
      : {}),
  };
}

/** A tool's page as text (the resource a client reads instead of calling get_tool). */
export function pageText(answer: ToolAnswer): string {
  const lines = [`# ${answer.name}`, '', answer.description, '', `Page: ${answer.url}`, `Website: ${answer.website}`];
  lines.push(`Category: ${answer.category}`, `Pricing: ${answer.pricing}`, `Tags: ${answer.tags.join(', ')}`);
  if (answer.fullDescription) lines.push('', answer.fullDescription);
  if (answer.keyFeatures.length) lines.push('', '## Key features', ...answer.keyFeatures.map((f) => `- ${f}`));
  const server = answer.mcpServer;
  if (server) {
    lines.push('', `## MCP server ${server.registryName}`);
    if ('tools' in server.offers)
      lines.push('', '### Tools', ...server.offers.tools.map((t) => `- ${t.name}: ${t.description}`));
    for (const s of server.install.macosLinux)
      lines.push('', `### ${s.label}${s.variant ? ` (${s.variant})` : ''}`, '```', s.code, '```');
  }
  return lines.join('\n') + '\n';
}

/** The home page's filter categories (in its order) and every tag, each with its count of listed tools. */
export async function categoriesAnswer(db: DB) {
  const tools = await listToolSummaries(db);
  const byCategory = counted(tools.flatMap((t) => normaliseCategory(t.category) ?? []));
  const count = new Map(byCategory.map((c) => [c.name, c.tools]));
  return {
    total: tools.length,
    categories: CATEGORIES.filter((c) => c !== 'All').map((name) => ({ name, tools: count.get(name) ?? 0 })),
    tags: counted(tools.flatMap((t) => [...new Set(t.tags)])),
  };
}

/** The blog's newest published posts with their addresses. */
export async function postsAnswer(db: DB, origin: string, limit = 10) {
  const posts = (await listPublishedPosts(db)).slice(0, limit);
  return {
    posts: posts.map((p) => ({
      title: p.title,
      slug: p.slug,
      url: origin + postPath(p.slug),
      publishedAt: p.published_at ?? p.publishedAt ?? '',
      excerpt: p.excerpt ?? p.description ?? '',
    })),
  };
}

export type ToolAnswer = Awaited<ReturnType<typeof toolAnswer>>;
