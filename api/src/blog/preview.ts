/**
 * Preview links of unpublished posts, signed as release previews are (releases/preview.ts: same secret, same 24-hour
 * life, same cookie): /__preview/post/<slug>?exp=..&sig=.. gives the browser that follows it a cookie, and
 * /blog/<slug> then shows the draft or scheduled post to it. The page renderer passes the cookie's signed value to
 * its in-process API calls in a header, and the blog API answers the post in full only with a valid one. Such
 * pages and answers are never cached and never indexed (docs/operations.md, Editing content).
 */
import type { IncomingMessage } from 'node:http';
import { requestCookies } from '../http/cookies';
import { createPreviews, PREVIEW_PATH, type PreviewGrant } from '../releases/preview';

export const POST_PREVIEW_HEADER = 'x-post-preview';
const KIND = 'post';
const COOKIE = `preview_${KIND}`;

export interface PostPreview {
  slug: string;
  /** The signed grant, as the cookie and the header carry it. */
  token: string;
}

export interface PostPreviews {
  /** The link's path (on the site's origin), valid 24 hours from `now`. */
  link(slug: string, now?: Date): string;
  verify(slug: string, exp: string, sig: string): PreviewGrant | null;
  cookie(grant: PreviewGrant, secure: boolean): string;
  /** The post this request's cookie lets it see, or null. */
  of(req: Pick<IncomingMessage, 'headers'>): PostPreview | null;
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
  return {
    link: (slug, now) => signed.link(KIND, slug, now),
    verify: (slug, exp, sig) => signed.verify(KIND, slug, exp, sig),
    cookie: (grant, secure) => signed.cookie(grant, secure),
    of(req) {
      if (!signed.mayPreview(req)) return null;
      const token = requestCookies(req)[COOKIE];
      const slug = fromToken(token);
      return slug && token ? { slug, token } : null;
    },
    fromToken,
  };
}
