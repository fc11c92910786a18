import type { Request, RequestHandler, Response } from 'express';
import { failure, TOO_MANY_REQUESTS } from '@aitools/contracts/answers';
import { rateLimit, type Store } from 'express-rate-limit';

/** The separate budgets: each form has its own, and analytics events another. */
export const RATE_LIMIT_BUDGETS = [
  'submissions',
  'contact',
  'early-access',
  'events',
  'mcp',
  'release-uploads',
  'signals',
  'sign-in',
  'sign-in-person',
  'uncached-reads',
] as const;
export type RateLimitBudget = (typeof RATE_LIMIT_BUDGETS)[number];

/**
 * Where the counts live. By default each budget counts in this process's memory, so N processes allow N times
 * the limit; a shared store (any express-rate-limit Store, e.g. one on the database) makes it one limit for all.
 * Called once per budget: a store must not be shared between budgets, or keep them apart by prefix.
 */
export type RateLimitStoreFactory = (budget: RateLimitBudget) => Store | undefined;

export { TOO_MANY_REQUESTS };
/** A page asked for too often: the same words, as a page. */
const TOO_MANY_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Too many requests</title></head><body><main><h1>Too many requests</h1><p>${TOO_MANY_REQUESTS}</p></main></body></html>`;

export type RateLimits = Record<RateLimitBudget, RequestHandler>;

/** The release API puts the caller's token label here (releases/router.ts): its uploads count per token. */
export const RATE_LIMIT_KEY = 'rateLimitKey';
/** The console puts the person a sign-in attempt names here (console/auth.ts): attempts also count per person. */
export const SIGN_IN_PERSON_KEY = 'signInPerson';

/**
 * Per client address (IPv6 by /56, the library's default), counted per minute. Mount each one after the
 * request's validation: an invalid post gets its 400 without spending the budget of valid ones. Release uploads
 * count per token instead (res.locals[RATE_LIMIT_KEY]).
 */
export function createRateLimits(opts: {
  formsPerMinute: number;
  eventsPerMinute: number;
  mcpPerMinute?: number;
  releaseUploadsPerMinute?: number;
  signalsPerMinute?: number;
  signInPerMinute?: number;
  signInPerPersonPerMinute?: number;
  uncachedReadsPerMinute?: number;
  store?: RateLimitStoreFactory;
}): RateLimits {
  const limiter = (budget: RateLimitBudget, limit: number, keyGenerator?: (req: Request, res: Response) => string) =>
    rateLimit({
      ...(keyGenerator ? { keyGenerator } : {}),
      windowMs: 60_000,
      limit,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      identifier: budget,
      store: opts.store?.(budget),
      // With TRUST_PROXY off (the default) X-Forwarded-For is ignored on purpose; docs/operations.md (Behind a proxy) says when to set it.
      validate: { xForwardedForHeader: false },
      handler: (_req, res) => {
        res.status(429).json(failure(TOO_MANY_REQUESTS));
      },
    });
  return {
    submissions: limiter('submissions', opts.formsPerMinute),
    contact: limiter('contact', opts.formsPerMinute),
    'early-access': limiter('early-access', opts.formsPerMinute),
    events: limiter('events', opts.eventsPerMinute),
    // Every request to the MCP endpoint (an agent's session is a few: initialize, then its calls).
    mcp: limiter('mcp', opts.mcpPerMinute ?? 120),
    signals: limiter('signals', opts.signalsPerMinute ?? 60),
    'release-uploads': limiter(
      'release-uploads',
      opts.releaseUploadsPerMinute ?? 10,
      (_req, res) => `token:${String(res.locals[RATE_LIMIT_KEY])}`,
    ),
    // The console's sign-in: per address (the connection's, or the trusted proxy's: see trust proxy), and per person.
    'sign-in': limiter('sign-in', opts.signInPerMinute ?? 30),
    'sign-in-person': limiter(
      'sign-in-person',
      opts.signInPerPersonPerMinute ?? 10,
      (_req, res) => `person:${String(res.locals[SIGN_IN_PERSON_KEY])}`,
    ),
    // Asked only by a read that misses every cache (admitted, below): a cached answer never counts. No RateLimit
    // headers on the answers it lets through, which the caches keep and send to everyone.
    'uncached-reads': rateLimit({
      windowMs: 60_000,
      limit: opts.uncachedReadsPerMinute ?? 120,
      standardHeaders: false,
      legacyHeaders: false,
      identifier: 'uncached-reads',
      store: opts.store?.('uncached-reads'),
      validate: { xForwardedForHeader: false },
      handler: (req, res) => {
        const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
        const seconds = reset ? Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000)) : 60;
        res.status(429).set({ 'Retry-After': String(seconds), 'Cache-Control': 'no-store' });
        // The API's reads answer in JSON; a page, the feeds and the sitemap as a page.
        if (/^\/(api|v0\.1)\//.test(req.originalUrl)) res.json(failure(TOO_MANY_REQUESTS));
        else res.type('html').send(TOO_MANY_PAGE);
      },
    }),
  };
}

/**
 * Spends one of the request's budget where the route decides (a read that missed every cache): true when it may go
 * on, false when the limit's 429 has gone out.
 */
export async function admitted(limit: RequestHandler, req: Request, res: Response): Promise<boolean> {
  let passed = false;
  let failed: unknown;
  await limit(req, res, (err?: unknown) => {
    if (err) failed = err;
    else passed = true;
  });
  if (failed) throw failed;
  return passed;
}
