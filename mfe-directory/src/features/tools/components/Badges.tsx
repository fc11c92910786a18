import type { McpBadge } from '@aitools/contracts/tools';
import { firstPricing } from '@aitools/contracts/toolQuery';
import { pricingTone } from '../../pricing/pricing';

export function PricingBadge({ pricing }: { pricing?: string }) {
  const label = firstPricing(pricing);
  if (!label) return null;
  return <span className={`badge dir-badge--${pricingTone(pricing)}`}>{label}</span>;
}

export function McpBadgeLabel({ badge }: { badge?: McpBadge }) {
  if (!badge) return null;
  return (
    <span className={`badge dir-badge--mcp dir-badge--mcp-${badge.toLowerCase()}`}>
      {badge === 'Official' ? '✓ Official' : 'Community'}
    </span>
  );
}

/** On an MCP server's card: its texts have open findings (docs/mcp.md, "Description checks"); the page's Checks
 *  section says which. */
export function FindingsBadge({ open }: { open?: number }) {
  if (!open) return null;
  return <span className="badge dir-badge--findings">{open === 1 ? '1 open finding' : `${open} open findings`}</span>;
}
