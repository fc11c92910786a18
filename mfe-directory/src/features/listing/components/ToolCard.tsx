import { memo, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { ToolSummary } from '@aitools/contracts/tools';
import { LogoTile } from '../../tools/components/LogoTile';
import { FindingsBadge, McpBadgeLabel, PricingBadge } from '../../tools/components/Badges';
import { cardToolType, normaliseCategory } from '@aitools/contracts/toolQuery';
import { toolPath } from '@aitools/platform/routes';
import { plainClick } from '../../../shared/plainClick';

const CARD_TAGS = 3;

/** Memoised with a stable `saveScroll` (the list's): a keystroke re-renders the listing, not its 24 cards. */
export const ToolCard = memo(function ToolCard({ tool, saveScroll }: { tool: ToolSummary; saveScroll: () => void }) {
  const navigate = useNavigate();
  const href = toolPath(tool.slug);

  // Plain anchors, not the router's Link (two per card, a page of cards re-rendered at each keystroke): modifier-
  // clicks are the browser's (new tab/window); a plain click saves the scroll and navigates in-app.
  const onLinkClick = (e: MouseEvent) => {
    if (!plainClick(e)) return;
    e.preventDefault();
    saveScroll();
    navigate(href);
  };
  const onCardClick = (e: MouseEvent<HTMLElement>) => {
    if ((e.target as HTMLElement).closest('a, button')) return;
    if (!plainClick(e)) {
      window.open(href, '_blank', 'noopener');
      return;
    }
    saveScroll();
    navigate(href);
  };
  const tags = tool.tags;
  const type = cardToolType(tool);
  return (
    <article className="dir-card" onClick={onCardClick}>
      <div className="dir-card__badges">
        <span className="badge dir-badge--category">{normaliseCategory(tool.category) ?? type}</span>
        <PricingBadge pricing={tool.pricing} />
        <FindingsBadge open={tool.openFindings} />
      </div>
      <div className="dir-card__head">
        {/* Keyed by the tool: a card showing another tool starts with a fresh image state. */}
        <LogoTile key={tool.slug} name={tool.name} logo={tool.logo} size={48} />
        <div>
          {/* h2: the grid sits right under the page's h1, and a heading level must not be skipped. */}
          <h2 className="dir-card__name">
            <a href={href} onClick={onLinkClick} className="quiet-link">
              {tool.name}
            </a>
          </h2>
          <div className="dir-card__meta">
            <span className="dir-card__type">{type === 'MCP Servers' ? 'MCP Server' : 'AI Tool'}</span>
            <McpBadgeLabel badge={tool.mcpBadge} />
          </div>
        </div>
      </div>
      <p className="dir-card__desc">{tool.description}</p>
      {tags.length > 0 && (
        <ul className="dir-card__tags" aria-label="Tags">
          {tags.slice(0, CARD_TAGS).map((t) => (
            <li key={t} className="tag">
              {t}
            </li>
          ))}
          {tags.length > CARD_TAGS && <li className="tag tag--more">+{tags.length - CARD_TAGS} more</li>}
        </ul>
      )}
      <div className="dir-card__actions">
        <a
          href={href}
          className="btn btn--primary btn--small"
          onClick={onLinkClick}
          aria-label={`View Details: ${tool.name}`}
        >
          View Details
        </a>
        <a
          href={tool.website}
          className="btn btn--ghost btn--small"
          target="_blank"
          rel="noopener noreferrer"
          onClick={(e) => e.stopPropagation()}
          aria-label={`Visit Site: ${tool.name} (opens in a new tab)`}
        >
          Visit Site ↗
        </a>
      </div>
    </article>
  );
});
