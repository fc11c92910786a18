import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { canonicalUrl, defineRoute, formatLongDate, getConfig, SITE_NAME, type RouteModule } from '@aitools/platform';
import './legal.css';

interface LegalPageInfo {
  title: string;
  path: string;
  description: string;
}

/** Each legal page's head: its title, address and description. */
const PAGES = {
  privacy: {
    title: 'Privacy Policy',
    path: '/privacy',
    description:
      'How the AI Tools Directory handles your data: no cookies, anonymized EU-processed analytics, and your GDPR rights.',
  },
  terms: {
    title: 'Terms of Service',
    path: '/terms',
    description: 'The terms for using the AI Tools Directory: license, disclaimer, conduct, termination and liability.',
  },
  cookies: {
    title: 'Cookie Policy',
    path: '/cookies',
    description:
      'The AI Tools Directory is cookieless: no cookies, no cross-site tracking, anonymized analytics processed in the EU.',
  },
} satisfies Record<string, LegalPageInfo>;

/** A legal page's route module: static text in the legal frame, so no loader; the head comes from the table above. */
export function legalRoute(name: keyof typeof PAGES, Text: () => ReactNode): RouteModule<null> {
  const page = PAGES[name];
  return defineRoute({
    head: () => ({
      title: `${page.title} | ${SITE_NAME}`,
      description: page.description,
      canonical: canonicalUrl(getConfig().siteOrigin, page.path),
      robots: 'index,follow',
    }),
    Component: () => (
      <LegalPage {...page}>
        <Text />
      </LegalPage>
    ),
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
