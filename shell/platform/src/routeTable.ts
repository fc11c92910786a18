/**
 * The route table (docs/product.md, Routes), declared once: which remote's exposed module renders each path. The shell's
 * router and the server's matching are made from it (shell/src/routes.tsx), each remote's build exposes exactly its
 * modules (remoteConfig in ../vite/federationConfig.ts fails the build when one is missing), the release check makes
 * sure the server entry renders each of them, and the sitemap lists its pages (api/src/seo). Data only: the shell,
 * the remotes' builds and the api all read it.
 */
export const REMOTE_NAMES = ['directory', 'blog', 'forms', 'legal'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

export interface RouteEntry {
  path: string;
  remote: RemoteName;
  /** The remote's exposed module, './Name': built from the remote's src/routes/Name.tsx. */
  module: string;
  /** For a param route: the API resource (+ the slug) whose 404 makes the page a 404 whatever state its remote is in. */
  existsAt?: string;
  /**
   * The query parameters the page reads (docs/product.md, Routes): the only ones that can change it, so the only ones
   * its cached copies are keyed on (api/src/http/canonicalAddress.ts; deploy/varnish/site.vcl does the same).
   */
  query: readonly string[];
}

/** The directory's address: /?search=&category=&type=&sort=&size=&page= (contracts/toolQuery.ts, readToolQuery). */
const DIRECTORY_QUERY = ['search', 'category', 'type', 'sort', 'size', 'page'] as const;

/** The anchor /#faq is the home page's FAQ section. */
export const ROUTE_TABLE: readonly RouteEntry[] = [
  { path: '/', remote: 'directory', module: './Home', query: DIRECTORY_QUERY },
  // The install section's system (mfe-directory InstallSection).
  { path: '/tool/:slug', remote: 'directory', module: './ToolDetail', existsAt: '/api/tools/', query: ['os'] },
  // mfe-blog listing.ts, readListQuery.
  { path: '/blog', remote: 'blog', module: './BlogList', query: ['search', 'category', 'page'] },
  { path: '/blog/:slug', remote: 'blog', module: './BlogPost', existsAt: '/api/blog/public/posts/', query: [] },
  // The forms' answers after a post without JavaScript (mfe-forms routes).
  { path: '/advertise', remote: 'forms', module: './Advertise', query: ['waitlist', 'subscribed'] },
  { path: '/submit', remote: 'forms', module: './Submit', query: ['submitted'] },
  { path: '/contact', remote: 'forms', module: './Contact', query: ['sent'] },
  { path: '/privacy', remote: 'legal', module: './Privacy', query: [] },
  { path: '/terms', remote: 'legal', module: './Terms', query: [] },
  { path: '/cookies', remote: 'legal', module: './Cookies', query: [] },
];

/** The shell's own screens. */
export const SHELL_ROUTES = { admin: '/admin' } as const;

/** Where an exposed module's source lives in its remote's package. */
const moduleSourceFile = (module: string) => `./src/routes/${module.replace(/^\.\//, '')}.tsx`;

/** A remote's exposes, as the table has them: './Home' -> './src/routes/Home.tsx'. */
export function exposesOf(remote: string): Record<string, string> {
  return Object.fromEntries(
    ROUTE_TABLE.filter((r) => r.remote === remote).map((r) => [r.module, moduleSourceFile(r.module)]),
  );
}

/** A page's address from the table, parameters filled in and encoded: pathOf('/tool/:slug', { slug: 'cursor' }). */
export function pathOf(pattern: string, params: Record<string, string> = {}): string {
  if (!ROUTE_TABLE.some((r) => r.path === pattern)) throw new Error(`${pattern} is not in the route table`);
  return pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/** The two kinds of page the catalogue links to (sitemap, feeds, registry, cards, canonical addresses). */
export const toolPath = (slug: string) => pathOf('/tool/:slug', { slug });
export const postPath = (slug: string) => pathOf('/blog/:slug', { slug });

/** The pages without parameters (for the sitemap). */
export const staticPaths = () => ROUTE_TABLE.filter((r) => !r.path.includes(':')).map((r) => r.path);
