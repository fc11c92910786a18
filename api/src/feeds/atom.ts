/**
 * Atom documents (RFC 4287) written with fast-xml-parser's builder, which escapes text and attribute values. Every
 * text construct is type="text": a title or summary is shown as the characters an editor or a submission stored,
 * never read as markup. Characters XML 1.0 cannot carry at all (most control characters, lone surrogates) are left
 * out, so any stored text gives a well-formed feed (docs/mcp.md, Feeds).
 */
import { XMLBuilder } from 'fast-xml-parser';
import { SITE_NAME } from '@aitools/platform/site';

export interface AtomEntry {
  title: string;
  id: string;
  link: string;
  updated: Date;
  published?: Date;
  summary?: string;
  authors?: string[];
  categories?: string[];
}

export interface AtomFeed {
  id: string;
  title: string;
  subtitle: string;
  link: string;
  self: string;
  updated: Date;
  entries: AtomEntry[];
}

/** Everything outside XML 1.0's Char production. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text XML can carry: the characters it cannot are dropped (escaping is the builder's). */
export const xmlChars = (text: string): string => text.replace(NOT_XML, '');

const text = (value: string) => ({ '@_type': 'text', '#text': xmlChars(value) });

const builder = new XMLBuilder({ ignoreAttributes: false, format: true, suppressEmptyNode: true });

export function atomXml(feed: AtomFeed): string {
  return builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'utf-8' },
    feed: {
      '@_xmlns': 'http://www.w3.org/2005/Atom',
      '@_xml:lang': 'en',
      id: feed.id,
      title: text(feed.title),
      subtitle: text(feed.subtitle),
      updated: feed.updated.toISOString(),
      // Atom asks for an author of every entry: the site's, where an entry names none.
      author: { name: SITE_NAME },
      link: [
        { '@_rel': 'alternate', '@_type': 'text/html', '@_href': feed.link },
        { '@_rel': 'self', '@_type': 'application/atom+xml', '@_href': feed.self },
      ],
      entry: feed.entries.map((e) => ({
        title: text(e.title),
        id: e.id,
        link: { '@_rel': 'alternate', '@_type': 'text/html', '@_href': e.link },
        updated: e.updated.toISOString(),
        ...(e.published ? { published: e.published.toISOString() } : {}),
        ...(e.summary ? { summary: text(e.summary) } : {}),
        ...(e.authors?.length ? { author: e.authors.map((name) => ({ name: xmlChars(name) })) } : {}),
        ...(e.categories?.length
          ? { category: e.categories.map((c) => ({ '@_term': xmlChars(c), '@_label': xmlChars(c) })) }
          : {}),
      })),
    },
  }) as string;
}
