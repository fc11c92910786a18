/**
 * Operators of the console in Chromium (docs/operations.md, The console): a browser context of their own with a
 * virtual authenticator (the DevTools Protocol's WebAuthn domain), registered from an invitation link.
 */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { SESSION_COOKIE } from '../../api/src/console/sessions';
import { rememberSecret, rememberSecretsIn } from './harness';

export interface Operator {
  name: string;
  context: BrowserContext;
  page: Page;
  /** Its DevTools session (the WebAuthn domain) and its authenticator. */
  cdp: CDPSession;
  authenticatorId: string;
}

/** Polls `check` until it holds (a server-side effect seen through a page or an answer), failing after `ms`. */
export async function eventually(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, what);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Adds a platform authenticator that verifies its user (the DevTools Protocol's WebAuthn domain). */
export async function addAuthenticator(cdp: CDPSession): Promise<string> {
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}

/** A fresh browser context (its own cookies) with an authenticator. */
export async function operatorBrowser(
  browser: Browser,
  colorScheme: 'light' | 'dark' = 'light',
): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession; authenticatorId: string }> {
  const context = await browser.newContext({ colorScheme, viewport: { width: 1280, height: 900 } });
  // Every session id the console gives this browser, for the run's log scan (harness.ts, rememberSecret).
  context.on('response', (res) => {
    void res
      .headerValue('set-cookie')
      .then((cookies) => {
        for (const m of (cookies ?? '').matchAll(new RegExp(`${SESSION_COOKIE}=([^;\\s]+)`, 'g')))
          rememberSecret('session id', m[1]!);
      })
      .catch(() => undefined);
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  return { context, page, cdp, authenticatorId: await addAuthenticator(cdp) };
}

/** Opens an invitation link (on `consoleUrl`) in a fresh browser and registers its passkey; the dashboard follows. */
export async function registerOperator(
  browser: Browser,
  consoleUrl: string,
  name: string,
  link: string,
): Promise<Operator> {
  assert.ok(link.startsWith(`${consoleUrl}/invite/`), `an invitation link on the console's origin: ${link}`);
  rememberSecretsIn(link);
  const { context, page, cdp, authenticatorId } = await operatorBrowser(browser);
  await page.goto(link);
  await page.getByRole('button', { name: 'Register a passkey' }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  return { name, context, page, cdp, authenticatorId };
}
