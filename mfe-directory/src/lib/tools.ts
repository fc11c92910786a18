import type { ToolSummary } from '@aitools/api/contracts/tools';
import { normaliseCategory } from './categories';
import { filterToolType } from './toolType';
import { firstPricing, pricingRank } from './pricing';

const DEFAULT_POPULARITY = 5;
export type SortKey = 'popularity' | 'alphabetical' | 'pricing';
export const SORT_OPTIONS: { value: SortKey; label: string }[] = [
  { value: 'popularity', label: 'Most Popular' },
  { value: 'alphabetical', label: 'Alphabetical (A-Z)' },
  { value: 'pricing', label: 'Pricing (Free first)' },
];

/** Type filter values as written in the URL; "free" and "paid" come from the detail page's Explore More links. */
export type TypeFilter = 'all' | 'ai-tool' | 'mcp-servers' | 'free' | 'paid';
export const TYPE_OPTIONS: { value: TypeFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'ai-tool', label: 'AI Tool' },
  { value: 'mcp-servers', label: 'MCP Servers' },
];

export function parseTypeFilter(value: string | null): TypeFilter {
  return value === 'ai-tool' || value === 'mcp-servers' || value === 'free' || value === 'paid' ? value : 'all';
}

export interface Filters {
  search: string;
  category: string;
  type: TypeFilter;
}

function matchesType(tool: ToolSummary, type: TypeFilter): boolean {
  switch (type) {
    case 'all':
      return true;
    case 'ai-tool':
      return filterToolType(tool) === 'AI Tool';
    case 'mcp-servers':
      return filterToolType(tool) === 'MCP Servers';
    case 'free':
      return /^free/i.test(firstPricing(tool.pricing));
    case 'paid':
      return /paid/i.test(tool.pricing ?? '');
  }
}

/** Search in name or description (case-insensitive), category (with its aliases) and type, combined. */
export function filterTools(tools: ToolSummary[], { search, category, type }: Filters): ToolSummary[] {
  const q = search.trim().toLowerCase();
  return tools.filter(
    (t) =>
      (!q || t.name.toLowerCase().includes(q) || (t.description ?? '').toLowerCase().includes(q)) &&
      (category === 'All' || normaliseCategory(t.category) === category) &&
      matchesType(t, type),
  );
}

// One collator for every comparison: localeCompare with options builds a new one per call (slow on large lists).
const nameCollator = new Intl.Collator('en', { sensitivity: 'base' });
const byName = (a: ToolSummary, b: ToolSummary) => nameCollator.compare(a.name, b.name);
const popularity = (t: ToolSummary) => (typeof t.popularityScore === 'number' ? t.popularityScore : DEFAULT_POPULARITY);

/** SPEC section 4 sorts; returns a new array. Keys are computed once per tool, not per comparison. */
export function sortTools(tools: ToolSummary[], sort: SortKey): ToolSummary[] {
  if (sort === 'alphabetical') return [...tools].sort(byName);
  const key = sort === 'popularity' ? (t: ToolSummary) => -popularity(t) : (t: ToolSummary) => pricingRank(t.pricing);
  return tools
    .map((t) => ({ t, k: key(t) }))
    .sort((a, b) => a.k - b.k || byName(a.t, b.t))
    .map((x) => x.t);
}
