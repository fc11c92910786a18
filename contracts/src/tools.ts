/**
 * The tool shapes shared by the API and the directory remote (docs/product.md, Tool data), the list summary the home page
 * needs, and the analytics event schema. Pure TypeScript and zod only: no server imports.
 */
import { z } from 'zod';
import { dateTimeSchema } from './dateTime';
import type { HealthStatus } from './checks';

export type Pricing = string;
export type McpBadge = 'Official' | 'Community';

/** (a) list of plans; details optionally "label: price - feature, feature; feature". */
export interface PricingPlanListItem {
  id?: number | string;
  name?: string;
  details?: string;
  order?: number;
}
/** (c) a structured plan. */
export interface PricingPlanObject {
  name?: string;
  price?: string;
  features?: string[];
  description?: string;
  highlight?: boolean;
}
/** The three shapes of detailedPricing: (a) a list, (b) key -> details string, (c) key -> structured plan. */
export type DetailedPricing = PricingPlanListItem[] | Record<string, string> | Record<string, PricingPlanObject>;

export type KeyFeature = string | { title: string; description?: string };

export interface ToolFaq {
  question: string;
  answer: string;
}

/** A whole tool as stored (tags may still be the brace-list string of older data). */
export interface Tool {
  id: number;
  name: string;
  slug: string;
  description: string;
  fullDescription?: string;
  category?: string;
  tags?: string[] | string;
  website: string;
  pricing?: Pricing;
  detailedPricing?: DetailedPricing;
  keyFeatures?: KeyFeature[];
  lastUpdated?: string;
  createdAt?: string;
  logo?: string;
  screenshot?: string;
  popularityScore?: number;
  faqs?: ToolFaq[];
  rating?: number;
  ratingCount?: number;
  company?: string;
  mcpBadge?: McpBadge;
}

/** What GET /api/tools carries per tool: enough for cards, filters and sorting; tags always an array. */
export interface ToolSummary {
  id: number;
  name: string;
  slug: string;
  description: string;
  category?: string;
  tags: string[];
  pricing?: Pricing;
  website: string;
  logo?: string;
  popularityScore?: number;
  mcpBadge?: McpBadge;
  lastUpdated?: string;
  /** An inspected MCP server's tool names (searched with the name and description, not shown on cards). */
  mcpTools?: string[];
  /** An inspected MCP server's open findings (docs/mcp.md, "Description checks"): the card's badge and the
   *  directory's "no open findings" filter read it. */
  openFindings?: number;
  /** A remote MCP server's last health check (docs/mcp.md, "Health"): the directory's "healthy" filter reads it. */
  health?: HealthStatus;
}

/** Tags are an array, or a brace-list string like "{a, b}" that is cleaned and split on commas (docs/product.md, Tool data). */
export function parseTags(tags: unknown): string[] {
  if (Array.isArray(tags))
    return tags
      .filter((t): t is string => typeof t === 'string')
      .map((t) => t.trim())
      .filter(Boolean);
  if (typeof tags !== 'string') return [];
  return tags
    .replace(/^\s*\{/, '')
    .replace(/\}\s*$/, '')
    .split(',')
    .map((t) =>
      t
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .trim(),
    )
    .filter(Boolean);
}

export function toToolSummary(tool: Tool): ToolSummary {
  const summary: ToolSummary = {
    id: tool.id,
    name: tool.name,
    slug: tool.slug,
    description: tool.description,
    category: tool.category,
    tags: parseTags(tool.tags),
    pricing: tool.pricing,
    website: tool.website,
    popularityScore: tool.popularityScore,
    lastUpdated: tool.lastUpdated,
  };
  if (tool.logo) summary.logo = tool.logo;
  if (tool.mcpBadge) summary.mcpBadge = tool.mcpBadge;
  return summary;
}

/** POST /api/events body: one analytics event (docs/product.md, API calls: event tool_page_view, data, timestamp).
 *  Built in a function marked pure so that bundles importing only the shapes above leave zod out. */
function buildAnalyticsEventSchema() {
  return z.object({
    event: z.literal('tool_page_view'),
    data: z.record(z.string(), z.unknown()).refine((d) => JSON.stringify(d).length <= 4000, 'data is too large'),
    timestamp: dateTimeSchema('timestamp must be a real date and time in ISO 8601 (2026-11-23T10:00:00.000Z)'),
  });
}
export const analyticsEventSchema = /* @__PURE__ */ buildAnalyticsEventSchema();
export type AnalyticsEvent = z.infer<typeof analyticsEventSchema>;
