import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { canonicalUrl, formatLongDate, getConfig, useHead, SITE_NAME } from '@aitools/platform';
import './legal.css';

interface LegalPageProps {
  title: string;
  path: string;
  description: string;
  children: ReactNode;
}

/** Frame shared by the three legal pages: title, "Last updated" (today), the text and a way home. */
export function LegalPage({ title, path, description, children }: LegalPageProps) {
  useHead({
    title: `${title} | ${SITE_NAME}`,
    description,
    canonical: canonicalUrl(getConfig().siteOrigin, path),
    robots: 'index,follow',
  });
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
