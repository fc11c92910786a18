/**
 * Operators in Chromium with passkeys: a browser context with a virtual authenticator (the DevTools Protocol's
 * WebAuthn domain) that verifies its user, and registration from a console invitation link.
 */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';

export interface OperatorBrowser {
  context: BrowserContext;
  page: Page;
  /** Its DevTools session (the WebAuthn domain) and its authenticator. */
  cdp: CDPSession;
  authenticatorId: string;
}

/** Adds a platform authenticator that verifies its user. */
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
): Promise<OperatorBrowser> {
  const context = await browser.newContext({ colorScheme, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  return { context, page, cdp, authenticatorId: await addAuthenticator(cdp) };
}

/** Opens an invitation link in a fresh browser and registers its passkey; the console's dashboard follows. */
export async function registerFromInvitation(
  browser: Browser,
  consoleUrl: string,
  link: string,
): Promise<OperatorBrowser> {
  assert.ok(link.startsWith(`${consoleUrl}/invite/`), `an invitation link on the console's origin: ${link}`);
  const operator = await operatorBrowser(browser);
  await operator.page.goto(link);
  await operator.page.getByRole('button', { name: 'Register a passkey' }).click();
  await operator.page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  return operator;
}
