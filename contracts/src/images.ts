/**
 * Addresses of the generated images (brand-logo tiles, post covers, social previews), shared by the API, which
 * generates and serves them, and the remotes, which link to them. Pure TypeScript: no server imports.
 *
 * Each address carries `?v=<digest of what the picture shows>`, so the files can be cached for a year
 * (`immutable`) and a renamed tool or post, or a new picture style, gets a new address.
 */

/** Bump when the look or the bytes of the generated pictures change: every address changes with it, so no cache
 *  keeps the old bytes (2: the pictures became palette PNGs). */
export const IMAGE_STYLE_VERSION = 2;

/** Social preview size (Open Graph / Twitter summary_large_image). */
export const SOCIAL_IMAGE_SIZE = { width: 1200, height: 630 } as const;
/** Post cover size: the 16:9 of the blog's cards. */
export const COVER_IMAGE_SIZE = { width: 1200, height: 675 } as const;
/** Narrower copies of a cover (`&w=`), for cards and phones: a 400 px card need not fetch 1200 px. */
export const COVER_WIDTHS = [400, 800] as const;
export type CoverWidth = (typeof COVER_WIDTHS)[number];

/** A request's `?w=` read as one of `widths`: `absent` when there is none, null when it is not one of them. */
function widthOf<W extends number, A>(w: unknown, widths: readonly W[], absent: A): W | A | null {
  return w === undefined ? absent : (widths.find((width) => String(width) === w) ?? null);
}

/** A cover's width from a request's `?w=`: undefined when there is none (the full width), null when it is not one
 *  of COVER_WIDTHS. */
export const coverWidthOf = (w: unknown): CoverWidth | undefined | null => widthOf(w, COVER_WIDTHS, undefined);

/** The formats a picture comes in: PNG for every picture (social previews must be PNG), lossless WebP for covers
 *  too (20-30% fewer bytes). Each is also the file's extension. */
export const IMAGE_FORMATS = ['png', 'webp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export const isImageFormat = (ext: string): ext is ImageFormat => (IMAGE_FORMATS as readonly string[]).includes(ext);

/** FNV-1a, 32 bits, as 8 hex digits: a short, stable digest that needs no crypto module in the browser. */
export function shortDigest(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

export interface ImageSubject {
  slug: string;
  title: string;
  category?: string | null;
}

/** The digest of what a picture of this subject shows. */
export function imageVersion(kind: ImageKind, subject: ImageSubject): string {
  return shortDigest([IMAGE_STYLE_VERSION, kind, subject.slug, subject.title, subject.category ?? ''].join('\u0000'));
}

export type ImageKind = 'tool-social' | 'post-social' | 'post-cover';

const PREFIX: Record<ImageKind, string> = {
  'tool-social': '/og/tool/',
  'post-social': '/og/blog/',
  'post-cover': '/covers/',
};

export function imagePath(kind: ImageKind, subject: ImageSubject): string {
  return `${PREFIX[kind]}${encodeURIComponent(subject.slug)}.png?v=${imageVersion(kind, subject)}`;
}

export const toolSocialImagePath = (tool: { slug: string; name: string; category?: string | null }) =>
  imagePath('tool-social', { slug: tool.slug, title: tool.name, category: tool.category });
export const postSocialImagePath = (post: { slug: string; title: string; category?: string | null }) =>
  imagePath('post-social', post);
export const postCoverPath = (post: { slug: string; title: string; category?: string | null }) =>
  imagePath('post-cover', post);

/** A generated cover's address (`/covers/<slug>.png?v=<digest>`). */
const COVER_ADDRESS = /^(\/covers\/[^/?]+)\.png(\?v=\w+)$/;

/** The `srcset`s of a generated cover, its narrower copies and itself: as lossless WebP (the same pixels in 20-30%
 *  fewer bytes, for `<source type="image/webp">`) and as PNG (for the `<img>`, and browsers without WebP).
 *  Undefined for any other picture. */
export function coverSources(src: string): { webp: string; png: string } | undefined {
  const m = COVER_ADDRESS.exec(src);
  if (!m) return undefined;
  const srcSet = (address: string) =>
    [...COVER_WIDTHS.map((w) => `${address}&w=${w} ${w}w`), `${address} ${COVER_IMAGE_SIZE.width}w`].join(', ');
  return { webp: srcSet(`${m[1]}.webp${m[2]}`), png: srcSet(src) };
}

/** Brand-logo tiles: /logos/<tool slug>.svg?v=<digest of icon and colour>. */
export function logoPath(toolSlug: string, icon: string, hex: string): string {
  return `/logos/${encodeURIComponent(toolSlug)}.svg?v=${shortDigest([IMAGE_STYLE_VERSION, icon, hex].join('\u0000'))}`;
}

/** The widths a logo tile also comes in as lossless WebP (`/logos/<slug>.webp?v=<digest>&w=`): the tiles are 40, 48
 *  and 80 CSS px, on screens of one to three device pixels per CSS pixel. A raster image is decoded off the page's
 *  main thread, where each SVG image is a document of its own to parse, lay out and paint (docs/performance.md,
 *  "Logos as WebP"). */
export const LOGO_WIDTHS = [48, 96, 144, 240] as const;
export type LogoWidth = (typeof LOGO_WIDTHS)[number];

/** A logo's width from a request's `?w=`: the tile's own 48 px when there is none, null when it is not one of
 *  LOGO_WIDTHS. */
export const logoWidthOf = (w: unknown): LogoWidth | null => widthOf(w, LOGO_WIDTHS, 48 as const);

/** A generated logo's address (`/logos/<slug>.svg?v=<digest>`). */
const LOGO_ADDRESS = /^(\/logos\/[^/?]+)\.svg(\?v=\w+)$/;

/** The `srcset` of a generated logo's WebP copies, one per width; undefined for any other picture. */
export function logoSources(src: string): string | undefined {
  const m = LOGO_ADDRESS.exec(src);
  return m ? LOGO_WIDTHS.map((w) => `${m[1]}.webp${m[2]}&w=${w} ${w}w`).join(', ') : undefined;
}
