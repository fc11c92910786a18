/** A bounded label for a request's address (metrics): a page's route pattern, else its first path segments when
 *  they are the site's own, else "other" (made-up addresses must not make new series). */
import { matchPage } from '@aitools/platform/route-match';

const TOP = new Set([
  'assets',
  'remotes',
  'remotes.json',
  'v0.1',
  'logos',
  'covers',
  'og',
  '__preview',
  'metrics',
  'robots.txt',
  'sitemap.xml',
  'feed.xml',
  'rss.xml',
  'admin',
]);
const API = new Set([
  'tools',
  'blog',
  'events',
  'signals',
  'releases',
  'health',
  'submissions',
  'contact',
  'early-access',
]);

export function routeLabel(url: string): string {
  const path = url.split('?')[0] ?? '/';
  // The site's own first segments are never a page's, and are told apart without matching the route table.
  const [, first = '', second = ''] = path.split('/');
  if (first === 'api') return API.has(second) ? `/api/${second}` : '/api/*';
  if (TOP.has(first)) return `/${first}`;
  return matchPage(path)?.route.path ?? 'other';
}
