/**
 * Preview links: /__preview/<remote>/<id>?exp=<unix seconds>&sig=<HMAC> opens a stored release of one remote for
 * the browser that follows it, and no one else. The link carries no token: it is signed with the server's preview
 * secret (PREVIEW_SECRET) and lasts 24 hours. Following it sets a cookie per remote holding the same signed
 * triple, checked again on every request; pages rendered with it are never cached or replayed (app.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { RELEASE_ID } from './manifest';
import { requestCookies, siteCookie } from '../http/cookies';

export const PREVIEW_TTL_SECONDS = 24 * 60 * 60;
export const PREVIEW_PATH = '/__preview';
/** The form that ends every preview of this browser posts here. */
export const STOP_PREVIEW_PATH = `${PREVIEW_PATH}/stop`;
const COOKIE_PREFIX = 'preview_';

export interface PreviewGrant {
  remote: string;
  id: string;
  /** Unix seconds. */
  exp: number;
  sig: string;
}

export interface Previews {
  /** A signed link for a release, valid PREVIEW_TTL_SECONDS from `now`. */
  link(remote: string, id: string, now?: Date): string;
  /** The grant a link's parts make, or null when the signature is wrong or it has expired. */
  verify(remote: string, id: string, exp: string | number, sig: string, now?: Date): PreviewGrant | null;
  /** remote -> release id of this request's valid preview cookies. */
  of(req: Pick<IncomingMessage, 'headers'>): Record<string, string>;
  /** Whether the request carries any preview cookie at all (checked cheaply, before the front lane). */
  mayPreview(req: Pick<IncomingMessage, 'headers'>): boolean;
  /** Set-Cookie for a grant (the browser keeps it until the link expires). */
  cookie(grant: PreviewGrant, secure: boolean, now?: Date): string;
  /** Set-Cookie headers that end every preview the request carries. */
  clearCookies(req: Pick<IncomingMessage, 'headers'>): string[];
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** The request's preview cookies: remote -> value. */
function previewCookies(req: Pick<IncomingMessage, 'headers'>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(requestCookies(req)))
    if (name.startsWith(COOKIE_PREFIX) && value !== undefined) out.set(name.slice(COOKIE_PREFIX.length), value);
  return out;
}

export function createPreviews(secret: string, remotes: readonly string[]): Previews {
  const sign = (remote: string, id: string, exp: number) =>
    createHmac('sha256', secret).update(`${remote}\n${id}\n${exp}`).digest('base64url');

  const verify: Previews['verify'] = (remote, id, exp, sig, now = new Date()) => {
    const expiry = Number(exp);
    if (!remotes.includes(remote) || !RELEASE_ID.test(id) || !Number.isInteger(expiry) || typeof sig !== 'string')
      return null;
    if (expiry <= seconds(now) || expiry > seconds(now) + PREVIEW_TTL_SECONDS) return null;
    const expected = Buffer.from(sign(remote, id, expiry));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return { remote, id, exp: expiry, sig };
  };

  return {
    link(remote, id, now = new Date()) {
      const exp = seconds(now) + PREVIEW_TTL_SECONDS;
      return `${PREVIEW_PATH}/${remote}/${encodeURIComponent(id)}?exp=${exp}&sig=${sign(remote, id, exp)}`;
    },
    verify,
    of(req) {
      const out: Record<string, string> = {};
      for (const [remote, value] of previewCookies(req)) {
        const [id = '', exp = '', sig = ''] = value.split(':');
        if (verify(remote, id, exp, sig)) out[remote] = id;
      }
      return out;
    },
    mayPreview: (req) => (req.headers.cookie ?? '').includes(COOKIE_PREFIX),
    cookie(grant, secure, now = new Date()) {
      const maxAge = Math.max(0, grant.exp - seconds(now));
      return siteCookie(`${COOKIE_PREFIX}${grant.remote}`, `${grant.id}:${grant.exp}:${grant.sig}`, maxAge, secure);
    },
    clearCookies(req) {
      return [...previewCookies(req).keys()].map((remote) => siteCookie(`${COOKIE_PREFIX}${remote}`, '', 0, false));
    },
  };
}

/** PREVIEW_SECRET, else one kept in `file` (made on first use): links survive a restart of a single instance.
 *  Several instances must share PREVIEW_SECRET, or a link opened on one is refused by the others. */
export function previewSecret(configured: string | undefined, file: string): string {
  if (configured) return configured;
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  mkdirSync(dirname(file), { recursive: true });
  try {
    writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process made it first: use that one.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
  return secret;
}
