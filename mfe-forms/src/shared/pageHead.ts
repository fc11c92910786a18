import { canonicalUrl, getConfig, SITE_NAME, type Head } from '@aitools/platform';

/** The search metadata every forms page has: title, description, https canonical, indexable. */
export function pageHead(path: string, title: string, description: string): () => Head {
  return () => ({
    title: `${title} | ${SITE_NAME}`,
    description,
    canonical: canonicalUrl(getConfig().siteOrigin, path),
    robots: 'index,follow',
  });
}
