/** An MCP server page's Install section, as a visitor reads it (mcp.spec.ts, mcp-server.spec.ts). */
import type { Page } from 'playwright-core';

export const install = (page: Page) => page.getByRole('region', { name: /^Install / });
/** A client's snippet: the required settings only, and the first remote when the server offers several. */
export const snippetCode = (page: Page, client: string) =>
  install(page).locator(`code[data-client="${client}"]:not([data-optional])`).first();
export const snippetText = (page: Page, client: string) => snippetCode(page, client).innerText();

/** Opens a client's disclosure (a native <details>, so it works without script) and returns its snippet. */
export async function openClient(page: Page, label: string, client: string): Promise<string> {
  await install(page).locator('summary', { hasText: label }).click();
  await snippetCode(page, client).waitFor({ state: 'visible' });
  return snippetText(page, client);
}
