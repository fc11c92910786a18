import { createHash } from 'node:crypto';
import helmet from 'helmet';
import type { RequestHandler } from 'express';

/** The CSP source that allows exactly this inline script or style text (its SHA-256). */
export function inlineHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * Security headers and the CSP. Inline scripts are allowed by hash, not by a per-response nonce, so a page is the
 * same bytes for every visitor and can be cached (ssr/pageCache.ts). The page's one inline script is the theme,
 * applied before first paint. A page's inline stylesheets are added to its own policy (allowInlineStyles).
 */
export function securityHeaders(opts: { connectSrc: string[]; inlineScripts?: string[] }): RequestHandler {
  const documents = helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'script-src': ["'self'", ...(opts.inlineScripts ?? []).map(inlineHash)],
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
  // A module or a stylesheet is never a document: the policies that govern documents (CSP, framing, opener, agent
  // cluster, the old IE and Flash switches) do nothing on it, and sent on each of a page's dozen files they were
  // about 0.8 kB apiece on the wire, uncompressed (docs/performance.md, "Phones"). What applies to any response
  // stays: nosniff, the resource policy, HSTS, and the referrer policy (a module's own imports follow it).
  const code = helmet({
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  return (req, res, next) => (CODE_FILE.test(req.path) ? code : documents)(req, res, next);
}

/** The site's own JavaScript and CSS files: the shell's assets and release files. */
const CODE_FILE = /^\/(?:assets|remotes)\/.+\.(?:m?js|css)$/;

/**
 * A page's policy: the site's, with exactly the stylesheets the page carries inline allowed by hash. Pages inline
 * their CSS (ssr/inlineStyles.ts) so that nothing blocks their first paint; no other inline style element runs.
 */
export function allowInlineStyles(policy: string, cssTexts: string[]): string {
  if (!cssTexts.length) return policy;
  const hashes = cssTexts.map(inlineHash);
  return policy
    .split(';')
    .map((directive) => (directive.startsWith('style-src-elem ') ? [directive, ...hashes].join(' ') : directive))
    .join(';');
}
