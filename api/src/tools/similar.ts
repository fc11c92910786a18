/**
 * "Similar tools" for a tool page: tools of the same type (AI tool or MCP server), then the same category, ranked
 * by the tags they share, each tag weighted by how rare it is (sharing "github" says more than sharing "mcp").
 */
import type { ToolSummary } from '@aitools/contracts/tools';

const SIMILAR_COUNT = 6;

const categoryOf = (t: ToolSummary) =>
  t.category === 'MCP' ? 'MCP Servers' : t.category === 'AI Tools' ? 'AI Assistants' : t.category;
const isMcp = (t: ToolSummary) =>
  categoryOf(t) === 'MCP Servers' || t.tags.some((tag) => tag.toLowerCase() === 'mcp-server');
const popularity = (t: ToolSummary) => (typeof t.popularityScore === 'number' ? t.popularityScore : 5);

export function similarTools(target: ToolSummary, all: ToolSummary[], count = SIMILAR_COUNT): ToolSummary[] {
  const tagCounts = new Map<string, number>();
  for (const t of all)
    for (const tag of new Set(t.tags.map((x) => x.toLowerCase()))) tagCounts.set(tag, (tagCounts.get(tag) ?? 0) + 1);
  const targetTags = new Set(target.tags.map((x) => x.toLowerCase()));
  const weight = (tag: string) => Math.log((all.length + 1) / (tagCounts.get(tag) ?? 1));
  return all
    .filter((t) => t.slug !== target.slug)
    .map((t) => {
      let score = isMcp(t) === isMcp(target) ? 10 : 0;
      if (categoryOf(t) === categoryOf(target)) score += 4;
      for (const tag of new Set(t.tags.map((x) => x.toLowerCase()))) if (targetTags.has(tag)) score += weight(tag);
      return { t, score };
    })
    .sort((a, b) => b.score - a.score || popularity(b.t) - popularity(a.t) || a.t.name.localeCompare(b.t.name))
    .slice(0, count)
    .map((x) => x.t);
}
