import { useState, type MouseEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useHydrating } from './hydration';

/** The same empty string every render: React never writes it into the element (docs/performance.md, "Phones"). */
const KEEP = { __html: '' };

/** A plain click on a link of this site, to navigate in the app (the same test as React Router's Link). */
function sitePathOf(e: MouseEvent<HTMLElement>): string | null {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.altKey || e.ctrlKey || e.shiftKey) return null;
  const a = (e.target as Element).closest?.('a[href]');
  if (!a || (a.getAttribute('target') ?? '_self') !== '_self' || a.hasAttribute('download')) return null;
  const url = new URL((a as HTMLAnchorElement).href);
  return url.origin === window.location.origin ? url.pathname + url.search + url.hash : null;
}

/**
 * Text the server rendered that responds to no input (a post's body): when the page is hydrated, the element keeps
 * the server's HTML as sent, and `render` never runs in the browser, so neither its work nor hydrating its nodes
 * holds the main thread. Rendered in the browser (an in-app navigation), it is `render()` as usual. Links to this
 * site inside navigate in the app either way.
 */
export function ServerHtml({ className, render }: { className?: string; render: () => ReactNode }) {
  const hydrating = useHydrating();
  // Latched: the render after hydration (the client snapshot differs) keeps the server's HTML too.
  const [kept] = useState(hydrating);
  const navigate = useNavigate();
  const onClick = (e: MouseEvent<HTMLElement>) => {
    const path = kept ? sitePathOf(e) : null;
    if (!path) return;
    e.preventDefault();
    void navigate(path);
  };
  return kept ? (
    <div className={className} onClick={onClick} suppressHydrationWarning dangerouslySetInnerHTML={KEEP} />
  ) : (
    <div className={className}>{render()}</div>
  );
}
