import { rateLimit } from 'express-rate-limit';

/** Writes (forms) per client address: a clear 429 in the API's error shape. */
export function writeRateLimit(limitPerMinute: number) {
  return rateLimit({
    windowMs: 60_000,
    limit: limitPerMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, res) => {
      res.status(429).json({ success: false, error: 'Too many requests. Please wait a minute and try again.' });
    },
  });
}
