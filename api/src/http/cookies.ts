/** The site's own cookies (a canary's bucket, release previews): one reader, one way of setting them. */
import type { IncomingMessage } from 'node:http';
import { parse } from 'cookie';

/** The request's cookies, read by the `cookie` package (the first of a repeated name wins, as browsers order them). */
export function requestCookies(req: Pick<IncomingMessage, 'headers'>): Record<string, string | undefined> {
  return parse(req.headers.cookie ?? '');
}

/** A first-party cookie for the whole site that scripts cannot read, sent on top-level navigations from elsewhere. */
export function siteCookie(name: string, value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
