/** Pure head handling, shared by the server (markup) and the browser (document.head). No React here. */
/** What a page says about itself: rendered into <head> by the server, applied to document.head in the browser. */
export interface Head {
  title: string;
  description?: string;
  canonical?: string;
  robots?: string;
  /** Absolute address of the page's social preview (1200x630): og:image, twitter:image, summary_large_image. */
  image?: string;
  /** Structured data, one script per entry. */
  jsonLd?: object | object[];
  /** Extra <link> tags (e.g. prev/next). */
  links?: { rel: string; href: string }[];
  /** Extra <meta> tags (social previews): name= or property= as given. */
  meta?: ({ name: string; content: string } | { property: string; content: string })[];
}

const MANAGED = 'data-head';

/** Site-wide Atom feeds (served by api/src/feeds), advertised on every page with <link rel="alternate">. */
export const SITE_FEEDS = [
  { path: '/feeds/blog.xml', title: 'AI Tools Blog' },
  { path: '/feeds/tools.xml', title: 'New and updated AI tools and MCP servers' },
] as const;
const feedLinks = SITE_FEEDS.map(
  (f) => `<link rel="alternate" type="application/atom+xml" title="${escapeHtml(f.title)}" href="${f.path}">`,
);

interface HeadElement {
  tag: string;
  attrs: Record<string, string>;
  text?: string;
}

function headElements(head: Head): HeadElement[] {
  const out: HeadElement[] = [];
  if (head.description) out.push({ tag: 'meta', attrs: { name: 'description', content: head.description } });
  if (head.robots) out.push({ tag: 'meta', attrs: { name: 'robots', content: head.robots } });
  if (head.canonical) out.push({ tag: 'link', attrs: { rel: 'canonical', href: head.canonical } });
  out.push({ tag: 'meta', attrs: { property: 'og:title', content: head.title } });
  if (head.description) out.push({ tag: 'meta', attrs: { property: 'og:description', content: head.description } });
  if (head.canonical) out.push({ tag: 'meta', attrs: { property: 'og:url', content: head.canonical } });
  if (head.image) {
    out.push({ tag: 'meta', attrs: { property: 'og:image', content: head.image } });
    out.push({ tag: 'meta', attrs: { property: 'og:image:width', content: '1200' } });
    out.push({ tag: 'meta', attrs: { property: 'og:image:height', content: '630' } });
    out.push({ tag: 'meta', attrs: { name: 'twitter:card', content: 'summary_large_image' } });
    out.push({ tag: 'meta', attrs: { name: 'twitter:image', content: head.image } });
  }
  for (const m of head.meta ?? []) out.push({ tag: 'meta', attrs: { ...m } as Record<string, string> });
  for (const l of head.links ?? []) out.push({ tag: 'link', attrs: { rel: l.rel, href: l.href } });
  const ld = head.jsonLd ? (Array.isArray(head.jsonLd) ? head.jsonLd : [head.jsonLd]) : [];
  for (const d of ld)
    out.push({ tag: 'script', attrs: { type: 'application/ld+json' }, text: serializeJsonForScript(d) });
  return out;
}

/** JSON that cannot close the <script> element it sits in. */
export function serializeJsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The robots tag of a page that no search engine may index whatever its routes say (a previewed draft): written
 *  outside the managed tags, so the browser's head changes keep it (applyHead). */
const NOINDEX = '<meta name="robots" content="noindex,nofollow">';
const UNMANAGED_ROBOTS = `meta[name="robots"]:not([${MANAGED}])`;

/** Server side: the <head> markup of a page; `noindex`: kept out of search engines for as long as it is open. */
export function renderHeadTags(head: Head, { noindex = false } = {}): string {
  const tags = headElements(noindex ? { ...head, robots: undefined } : head).map(({ tag, attrs, text }) => {
    const a = Object.entries(attrs)
      .map(([k, v]) => ` ${k}="${escapeHtml(v)}"`)
      .join('');
    return tag === 'script' ? `<script ${MANAGED}${a}>${text}</script>` : `<${tag} ${MANAGED}${a}>`;
  });
  return [`<title>${escapeHtml(head.title)}</title>`, ...(noindex ? [NOINDEX] : []), ...tags, ...feedLinks].join('\n');
}

/** Browser side: replace the previous page's managed tags with this page's. A head that already says this (the
 *  server's, when the page is hydrated) is left as it is: no tag is removed, made again or inserted. */
export function applyHead(doc: Document, head: Head): void {
  if (doc.title !== head.title) doc.title = head.title;
  const current = doc.head.querySelectorAll(`[${MANAGED}]`);
  const noindex = doc.head.querySelector(UNMANAGED_ROBOTS) !== null;
  const wanted = headElements(noindex ? { ...head, robots: undefined } : head);
  if (current.length === wanted.length && wanted.every((w, i) => isElement(current[i]!, w))) return;
  current.forEach((el) => el.remove());
  for (const { tag, attrs, text } of wanted) {
    const el = doc.createElement(tag);
    el.setAttribute(MANAGED, '');
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (text !== undefined) el.textContent = text;
    doc.head.appendChild(el);
  }
}

/** Whether `el` is the tag `wanted` describes: its name, exactly its attributes (and the marker), and its text. */
function isElement(el: Element, wanted: HeadElement): boolean {
  const names = Object.keys(wanted.attrs);
  return (
    el.localName === wanted.tag &&
    el.attributes.length === names.length + 1 &&
    names.every((k) => el.getAttribute(k) === wanted.attrs[k]) &&
    (wanted.text === undefined || el.textContent === wanted.text)
  );
}

/** The site's public origin for canonical links: https, no trailing slash. */
export function canonicalUrl(origin: string, path: string): string {
  const base = origin.replace(/^http:\/\//i, 'https://').replace(/\/+$/, '');
  const p = path === '/' ? '' : path.replace(/\/+$/, '');
  return `${base}${p}`;
}
