import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { canonicalUrl, defineRoute, formatLongDate, getConfig, SITE_NAME, type RouteModule } from '@aitools/platform';
import './legal.css';

interface LegalPageInfo {
  title: string;
  path: string;
  description: string;
}

/** A legal page's route module: static text, so no loader; the head comes from the page's title and address. */
export function legalRoute(page: LegalPageInfo, Component: () => ReactNode): RouteModule<null> {
  return defineRoute({
    head: () => ({
      title: `${page.title} | ${SITE_NAME}`,
      description: page.description,
      canonical: canonicalUrl(getConfig().siteOrigin, page.path),
      robots: 'index,follow',
    }),
    Component,
  });
}

/** Frame shared by the three legal pages: title, "Last updated" (today), the text and a way home. */
export function LegalPage({ title, children }: LegalPageInfo & { children: ReactNode }) {
  return (
    <main className="legal">
      <article className="legal__article">
        <Link to="/" className="legal__back">
          ← Back to Home
        </Link>
        <h1>{title}</h1>
        {/* "today" may differ between the server's and the visitor's time zone around midnight */}
        <p className="legal__updated" suppressHydrationWarning>
          Last updated: {formatLongDate(new Date())}
        </p>
        {children}
      </article>
    </main>
  );
}
