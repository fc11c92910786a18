import { useEffect, type MouseEvent } from 'react';
import { Link, useLocation, useNavigate, useNavigationType } from 'react-router-dom';
import {
  canonicalUrl,
  defineRoute,
  getConfig,
  HydrateLater,
  ShareLink,
  SITE_NAME,
  type HeadArgs,
  type RouteProps,
} from '@aitools/platform';
import { toolSocialImagePath } from '@aitools/contracts/images';
import { parseTags, type Tool } from '@aitools/contracts/tools';
import type { ToolLookup } from '../features/tools/api/loadTools';
import { toolLoader } from './loaders';
import { cardToolType, firstPricing, normaliseCategory } from '@aitools/contracts/toolQuery';
import { parsePricingPlans } from '../features/pricing/pricing';
import { formatLastUpdated, isoDay } from '../shared/dates';
import { recordInteraction, sendPageView } from '../features/analytics/interactions';
import { LogoTile } from '../features/tools/components/LogoTile';
import { McpBadgeLabel, PricingBadge } from '../features/tools/components/Badges';
import { BackToTop } from '../shared/BackToTop';
import { TagList } from '../features/tools/components/TagList';
import { PricingPlans } from '../features/pricing/components/PricingPlans';
import { ToolFaqAccordion } from '../features/faq/components/ToolFaqAccordion';
import { Screenshot } from '../features/tools/components/Screenshot';
import { InstallSection } from '../features/install/InstallSection';
import { SimilarTools } from '../features/similar/SimilarTools';
import { Checks } from '../features/checks/Checks';
import { ServerTools } from '../features/server-tools/ServerTools';
import { toolPath } from '@aitools/platform/routes';
import '../styles.css';

const DEFAULT_RATING = 4.5;
const DEFAULT_RATING_COUNT = 250;

function toolStructuredData(tool: Tool, url: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'SoftwareApplication',
    name: tool.name,
    description: tool.description,
    url,
    sameAs: tool.website,
    applicationCategory:
      cardToolType({ category: tool.category, tags: parseTags(tool.tags) }) === 'MCP Servers'
        ? 'DeveloperApplication'
        : 'BusinessApplication',
    operatingSystem: 'Web',
    ...(tool.company ? { publisher: { '@type': 'Organization', name: tool.company } } : {}),
    ...(isoDay(tool.lastUpdated) ? { dateModified: isoDay(tool.lastUpdated) } : {}),
    aggregateRating: {
      '@type': 'AggregateRating',
      ratingValue: typeof tool.rating === 'number' ? tool.rating : DEFAULT_RATING,
      ratingCount: typeof tool.ratingCount === 'number' ? tool.ratingCount : DEFAULT_RATING_COUNT,
      bestRating: 5,
    },
  };
}

const paragraphs = (text: string | undefined) =>
  (text ?? '')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
const featureTitle = (f: NonNullable<Tool['keyFeatures']>[number]) => (typeof f === 'string' ? f : f.title);

/** Found tools are indexable; not found is noindex. The canonical is https without a trailing slash. */
function toolHead({ data: lookup }: HeadArgs<ToolLookup>) {
  const canonical = canonicalUrl(getConfig().siteOrigin, toolPath(lookup.slug));
  const tool = lookup.tool;
  if (!tool)
    return {
      title: `AI Tool Not Found | ${SITE_NAME}`,
      description: `The AI tool "${lookup.slug}" could not be found.`,
      canonical,
      robots: 'noindex,nofollow',
    };
  return {
    title: `${tool.name} - ${normaliseCategory(tool.category) ?? 'AI Tool'} | ${SITE_NAME}`,
    description: tool.description,
    canonical,
    robots: 'index,follow',
    image: canonicalUrl(getConfig().siteOrigin, toolSocialImagePath(tool)),
    jsonLd: toolStructuredData(tool, canonical),
  };
}

/** While an in-app navigation to a tool loads (docs/product.md, Tool detail: "Loading AI Tool"). */
function ToolLoading() {
  return (
    <main className="dir-detail">
      <div className="dir-state" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" />
        <h1 className="dir-state__title">Loading AI Tool</h1>
      </div>
    </main>
  );
}

function ToolDetail({ data: lookup }: RouteProps<ToolLookup>) {
  const { slug } = lookup;
  const navigate = useNavigate();
  const location = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    if (navigationType !== 'POP') window.scrollTo(0, 0);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on arrival at this tool only, not on every navigation type change
  }, [slug]);

  const tool = lookup.tool;
  useEffect(() => {
    if (!tool) return;
    sendPageView({ toolName: tool.name, slug: tool.slug, category: tool.category ?? '', url: window.location.href });
    recordInteraction(tool.name, 'view', tool.category);
  }, [tool]);

  // "Back to Directory": a link to / (without script too); in the app, history when this visit has any (location.key
  // is 'default' on the first entry). A click that opens a new tab or window keeps the link's own meaning.
  const backToDirectory = (e: MouseEvent<HTMLAnchorElement>) => {
    if (location.key === 'default' || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    void navigate(-1);
  };

  if (!tool) {
    return (
      <main className="dir-detail">
        <div className="dir-state">
          <h1 className="dir-state__title">AI Tool Not Found</h1>
          <p>
            The AI tool "{slug}" could not be found. It may have been moved, deleted, or the URL might be incorrect.
          </p>
          <Link to="/" className="btn btn--primary">
            Browse All AI Tools
          </Link>
        </div>
      </main>
    );
  }

  const category = normaliseCategory(tool.category);
  const type = cardToolType({ ...tool, tags: parseTags(tool.tags) });
  const features = tool.keyFeatures ?? [];
  const pricingPlans = parsePricingPlans(tool.detailedPricing);
  const lastUpdated = formatLastUpdated(tool.lastUpdated);
  const pricingType = /^free/i.test(firstPricing(tool.pricing)) ? 'free' : 'paid';
  const visit = () => recordInteraction(tool.name, 'visit_website', tool.category);
  const shared = () => recordInteraction(tool.name, 'share', tool.category);

  return (
    <main className="dir-detail">
      <div className="container">
        <nav aria-label="Breadcrumb" className="dir-breadcrumb">
          <ol>
            <li>
              <Link to="/">Home</Link>
            </li>
            {category && (
              <li>
                <Link to={`/?category=${encodeURIComponent(category)}`}>{category}</Link>
              </li>
            )}
            <li aria-current="page">{tool.name}</li>
          </ol>
        </nav>
        <Link to="/" className="btn btn--ghost btn--small dir-detail__back" onClick={backToDirectory}>
          ← Back to Directory
        </Link>

        <header className="dir-detail__header">
          <LogoTile name={tool.name} logo={tool.logo} size={80} />
          <div>
            <h1>{tool.name}</h1>
            <div className="dir-detail__badges">
              <span className="badge dir-badge--category">{type === 'MCP Servers' ? 'MCP Server' : 'AI Tool'}</span>
              <PricingBadge pricing={tool.pricing} />
              <McpBadgeLabel badge={tool.mcpBadge} />
              {category && <span className="badge">{category}</span>}
            </div>
            <p className="dir-detail__desc">{tool.description}</p>
          </div>
        </header>

        <TagList tags={parseTags(tool.tags)} />
        {lastUpdated && <p className="dir-detail__updated">Last updated: {lastUpdated}</p>}
        {tool.screenshot && <Screenshot src={tool.screenshot} alt={`${tool.name} screenshot`} />}

        {features.length > 0 && (
          <aside className="dir-detail__benefits" aria-labelledby="dir-benefits-title">
            <h2 id="dir-benefits-title">Key Features and Benefits</h2>
            <ul>
              {features.slice(0, 4).map((f) => (
                <li key={featureTitle(f)}>{featureTitle(f)}</li>
              ))}
            </ul>
          </aside>
        )}

        <section aria-labelledby="dir-about-title" className="dir-detail__section">
          <h2 id="dir-about-title">About {tool.name}</h2>
          {paragraphs(tool.fullDescription || tool.description).map((p, i) => (
            <p key={i}>{p}</p>
          ))}
          <div className="dir-detail__actions">
            <a
              className="btn btn--primary"
              href={tool.website}
              target="_blank"
              rel="noopener noreferrer"
              onClick={visit}
            >
              Visit Website ↗
            </a>
            <ShareLink className="btn btn--ghost" title={tool.name} text={tool.description} onShare={shared} />
          </div>
        </section>

        <InstallSection tool={tool} />
        <Checks tool={tool} />
        <ServerTools tool={tool} />
        {/* Below the fold on a phone: hydrated after the rest (HydrateLater), in two parts. */}
        <HydrateLater>
          {features.length > 0 && (
            <section aria-labelledby="dir-features-title" className="dir-detail__section">
              <h2 id="dir-features-title">Key Features</h2>
              <ul className="dir-features">
                {features.map((f) => (
                  <li key={featureTitle(f)}>
                    {typeof f === 'string' ? (
                      f
                    ) : (
                      <>
                        <strong>{f.title}</strong>
                        {f.description && <span> — {f.description}</span>}
                      </>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          )}

          {pricingPlans.length > 0 && <PricingPlans plans={pricingPlans} />}
        </HydrateLater>
        <HydrateLater>
          {(tool.faqs?.length ?? 0) > 0 && <ToolFaqAccordion faqs={tool.faqs!} />}
          <SimilarTools tool={tool} />

          <section aria-labelledby="dir-explore-title" className="dir-detail__section">
            <h2 id="dir-explore-title">Explore More</h2>
            <ul className="dir-explore">
              {category && (
                <li>
                  <Link to={`/?category=${encodeURIComponent(category)}`}>More {category} tools</Link>
                </li>
              )}
              <li>
                <Link to={`/?type=${pricingType}`}>
                  {pricingType === 'free' ? 'Free and freemium AI tools' : 'Paid AI tools'}
                </Link>
              </li>
              <li>
                <Link to="/">Browse all AI tools</Link>
              </li>
              <li>
                <Link to="/blog">Read the AI Tools Blog</Link>
              </li>
              <li>
                <Link to="/#faq">Frequently asked questions</Link>
              </li>
              <li>
                <Link to="/submit">Submit your tool</Link>
              </li>
            </ul>
          </section>
        </HydrateLater>
      </div>
      <BackToTop threshold={400} />
    </main>
  );
}

export default defineRoute<ToolLookup>({
  loader: toolLoader,
  head: toolHead,
  Component: ToolDetail,
  Pending: ToolLoading,
});
