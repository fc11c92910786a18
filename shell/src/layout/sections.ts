/** The site's main sections, in the top bar's order. */
export const MAIN_SECTIONS = [
  { to: '/', label: 'Directory' },
  { to: '/?type=mcp-servers', label: 'MCP Servers' },
  { to: '/blog', label: 'Blog' },
  { to: '/submit', label: 'Submit a tool' },
] as const;

export type SectionHref = (typeof MAIN_SECTIONS)[number]['to'];

/**
 * Which section the visitor is in: aria-current="page" when on the section's own page, "true" when inside it
 * (a post under /blog), none elsewhere (a tool page, the legal pages).
 */
export function currentSection(pathname: string, search: string): { to: SectionHref; current: 'page' | 'true' } | null {
  const type = new URLSearchParams(search).get('type');
  if (pathname === '/')
    return type === 'mcp-servers' ? { to: '/?type=mcp-servers', current: 'page' } : { to: '/', current: 'page' };
  if (pathname === '/blog') return { to: '/blog', current: 'page' };
  if (pathname.startsWith('/blog/')) return { to: '/blog', current: 'true' };
  if (pathname === '/submit') return { to: '/submit', current: 'page' };
  return null;
}
