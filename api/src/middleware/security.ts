import { createHash } from 'node:crypto';
import helmet from 'helmet';
import type { RequestHandler } from 'express';

/** The CSP source that allows exactly this inline script text (its SHA-256), the same for every response. */
export function scriptHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * Security headers and the CSP. Inline scripts are allowed by hash, not by a per-response nonce, so a page is the
 * same bytes for every visitor and can be cached (ssr/pageCache.ts). The page's one inline script is the theme,
 * applied before first paint.
 */
export function securityHeaders(opts: { connectSrc: string[]; inlineScripts?: string[] }): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'script-src': ["'self'", ...(opts.inlineScripts ?? []).map(scriptHash)],
        // Style elements: our stylesheets only. Style attributes stay allowed: the directory's letter tiles carry
        // their colour and size inline (mfe-directory LogoTile), and an attribute cannot load or run anything.
        // 'unsafe-inline' in style-src is only the fallback of browsers without the -elem/-attr directives.
        'style-src': ["'self'", "'unsafe-inline'"],
        'style-src-elem': ["'self'"],
        'style-src-attr': ["'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'https:'],
        'connect-src': ["'self'", ...opts.connectSrc],
        'upgrade-insecure-requests': null,
      },
    },
    // Same-origin assets only; COEP would block nothing useful and breaks external logos.
    crossOriginEmbedderPolicy: false,
  });
}
