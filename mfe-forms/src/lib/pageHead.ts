import { canonicalUrl, getConfig, SITE_NAME, useHead } from '@aitools/platform';

/** The search metadata every forms page sets: title, description, https canonical, indexable. */
export function usePageHead(path: string, title: string, description: string): void {
  useHead({ title: `${title} | ${SITE_NAME}`, description, canonical: canonicalUrl(getConfig().siteOrigin, path), robots: 'index,follow' });
}
