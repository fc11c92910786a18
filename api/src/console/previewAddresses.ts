/**
 * The live preview is the blog's server HTML shown inside a console page, on the console's origin, where a relative
 * address would mean the console's own file. Its addresses are made the site's, as a reader's browser resolves them,
 * except the previewed post's generated cover, which the site draws only once the post is published: that one is
 * the console's editor-only drawing of it (docs/operations.md, Editing content).
 */
import { IMAGE_FORMATS, type ImageFormat } from '@aitools/contracts/images';

/** The console's address of a post's cover in a format (its `?v=` and `?w=` follow, as on the site). */
export const consoleCoverPath = (slug: string, format: ImageFormat = 'png') => `/api/posts/${slug}/cover.${format}`;

/** Attributes that hold addresses in the blog's article markup (React writes `srcSet`, each value double-quoted
 *  and escaped, so a quote never ends one early). */
const ADDRESS = /(\s(?:src|href|srcset)=")([^"]*)"/gi;

export function siteAddresses(html: string, siteOrigin: string, slug: string): string {
  const origin = new URL(siteOrigin).origin;
  const resolve = (address: string) => {
    for (const format of IMAGE_FORMATS) {
      const cover = `/covers/${slug}.${format}`;
      if (address === cover || address.startsWith(`${cover}?`))
        return consoleCoverPath(slug, format) + address.slice(cover.length);
    }
    // Only root-relative addresses: absolute ones, fragments and protocol-relative ones mean the same everywhere.
    return /^\/(?![/\\])/.test(address) ? origin + address : address;
  };
  return html.replace(ADDRESS, (_all, attribute: string, value: string) => {
    const resolved = /srcset/i.test(attribute)
      ? value
          .split(',')
          .map((candidate) =>
            candidate.replace(/^(\s*)(\S+)/, (_c, space: string, url: string) => space + resolve(url)),
          )
          .join(',')
      : resolve(value);
    return `${attribute}${resolved}"`;
  });
}
