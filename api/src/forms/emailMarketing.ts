import type { Logger } from 'pino';

/**
 * Forwards an early-access address to the email-marketing service's subscribe form (SPEC section 7:
 * form-encoded fields[email], ml-submit, anticsrf). Never throws: the visitor's signup is already stored,
 * so a slow or failing service is only logged.
 */
export async function forwardToEmailMarketing(
  url: string,
  email: string,
  logger: Logger,
  timeoutMs = 3000,
): Promise<boolean> {
  const body = new URLSearchParams({ 'fields[email]': email, 'ml-submit': '1', anticsrf: 'true' });
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) logger.warn({ status: res.status }, 'email-marketing subscribe answered an error');
    return res.ok;
  } catch (err) {
    logger.warn({ err }, 'email-marketing subscribe failed');
    return false;
  }
}
