/**
 * Preview links of unpublished posts, signed as release previews are (releases/preview.ts: same secret, same 24-hour
 * life): /__preview/post/<slug>?exp=..&sig=.. gives the browser that follows it a cookie for that post, and
 * /blog/<slug> then shows the draft or scheduled post to it. The page renderer passes the cookie's signed value to
 * its in-process API calls in a header; the browser's own calls carry the cookie. The blog API answers the post in
 * full only with a valid one of either. Such pages and answers are never cached and never indexed
 * (docs/operations.md, Editing content).
 *
 * One cookie per post (`preview_post_<slug>`), so opening a second link keeps the first; at most
 * MAX_POST_PREVIEWS of them, the ones expiring first dropped, so the site's cookie header stays small.
 */
import type { IncomingMessage } from 'node:http';
import { requestCookies, siteCookie } from '../http/cookies';
import { createPreviews, PREVIEW_PATH, type PreviewGrant } from '../releases/preview';

export const POST_PREVIEW_HEADER = 'x-post-preview';
const KIND = 'post';
const COOKIE_PREFIX = `preview_${KIND}_`;
/** Posts one browser may preview at once (each cookie is at most ~500 bytes: a 200-character slug twice). */
export const MAX_POST_PREVIEWS = 10;

type CookieHolder = Pick<IncomingMessage, 'headers'>;
/** A request as the routes see it: Express's `originalUrl` is the address before a router's mount point. */
type Addressed = CookieHolder & Pick<IncomingMessage, 'url'> & { originalUrl?: string };

/** The post a path is about: its last segment without an extension (/blog/<slug>, /covers/<slug>.png). */
function slugInPath(url: string | undefined): string {
  const path = (url ?? '').split('?', 1)[0]!;
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.[a-z]+$/, '');
}

export interface PostPreview {
  slug: string;
  /** The signed grant, as the cookie and the header carry it. */
  token: string;
}

export interface PostPreviews {
  /** The link's path (on the site's origin), valid 24 hours from `now`. */
  link(slug: string, now?: Date): string;
  verify(slug: string, exp: string, sig: string): PreviewGrant | null;
  /** Set-Cookie for a grant: this post's own cookie, beside the browser's other post previews. */
  cookie(grant: PreviewGrant, secure: boolean): string;
  /** Set-Cookie headers that drop the request's post previews expiring first, so that with `adding`'s own it
   *  keeps at most MAX_POST_PREVIEWS. */
  dropped(req: CookieHolder, adding: string, secure: boolean): string[];
  /** The preview of the post `slug` (by default the one the request's path names) that the request's cookies
   *  grant, or null. */
  of(req: Addressed, slug?: string): PostPreview | null;
  /** The slug a header's token grants, or null. */
  fromToken(token: string | undefined): string | null;
}

export const POST_PREVIEW_PATH = `${PREVIEW_PATH}/${KIND}`;

export function createPostPreviews(secret: string): PostPreviews {
  const signed = createPreviews(secret, [KIND]);
  const fromToken = (token: string | undefined) => {
    const [slug = '', exp = '', sig = ''] = (token ?? '').split(':');
    return signed.verify(KIND, slug, exp, sig)?.id ?? null;
  };
  /** The request's valid post previews: slug -> token. */
  const held = (req: CookieHolder) => {
    const out = new Map<string, string>();
    if (!signed.mayPreview(req)) return out;
    for (const [name, token] of Object.entries(requestCookies(req))) {
      if (!name.startsWith(COOKIE_PREFIX)) continue;
      const slug = fromToken(token);
      if (slug && token && name === COOKIE_PREFIX + slug) out.set(slug, token);
    }
    return out;
  };
  const expiry = (token: string) => Number(token.split(':')[1]);
  return {
    link: (slug, now) => signed.link(KIND, slug, now),
    verify: (slug, exp, sig) => signed.verify(KIND, slug, exp, sig),
    // Named `preview_post_<slug>`: the release previews' cookie, for a "remote" of its own.
    cookie: (grant, secure) => signed.cookie({ ...grant, remote: `${KIND}_${grant.id}` }, secure),
    dropped(req, adding, secure) {
      return [...held(req)]
        .filter(([slug]) => slug !== adding)
        .sort(([, a], [, b]) => expiry(b) - expiry(a))
        .slice(MAX_POST_PREVIEWS - 1)
        .map(([slug]) => siteCookie(COOKIE_PREFIX + slug, '', 0, secure));
    },
    of(req, slug = slugInPath(req.originalUrl ?? req.url)) {
      if (!signed.mayPreview(req)) return null;
      const token = requestCookies(req)[COOKIE_PREFIX + slug];
      return token && fromToken(token) === slug ? { slug, token } : null;
    },
    fromToken,
  };
}
