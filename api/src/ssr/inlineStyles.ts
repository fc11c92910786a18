/**
 * Stylesheets inlined into the page: the shell's and the rendered route's remote's. A linked stylesheet blocks the
 * first paint until it arrives (a round trip each on a phone's network); inline, the page paints as soon as its HTML
 * is in. Each <style> names its file (data-href), so the browser's loader (shell/src/remotes/loadRemote.ts) knows
 * the remote's styles are already on the page; the page's CSP allows exactly these texts by hash.
 */
import { readFileSync } from 'node:fs';
import { escapeHtml } from '@aitools/platform/head-tags';

export interface InlineStyle {
  href: string;
  css: string;
}

/** Release files never change, so each is read once; a package's dist/ (DEV_REMOTES) is read every time. */
export function createStylesheetReader() {
  const texts = new Map<string, string>();
  return (file: string, immutable: boolean): string => {
    let css = immutable ? texts.get(file) : undefined;
    if (css === undefined) {
      css = readFileSync(file, 'utf8');
      if (immutable) texts.set(file, css);
    }
    return css;
  };
}

/** The element for a stylesheet; null for a text that could end the element early (then the page links it). */
export function styleElement({ href, css }: InlineStyle): string | null {
  if (/<\/style/i.test(css)) return null;
  return `<style data-href="${escapeHtml(href)}">${css}</style>`;
}

const SHELL_STYLESHEET = /<link rel="stylesheet"(?: crossorigin)? href="(\/assets\/[\w.-]+\.css)">/g;

/** The shell's built page with its stylesheets inlined (read from its assets folder); returns their texts too. */
export function inlineShellStylesheets(
  template: string,
  readAsset: (href: string) => string,
): { template: string; styles: string[] } {
  const styles: string[] = [];
  const out = template.replace(SHELL_STYLESHEET, (link, href: string) => {
    const style = { href, css: readAsset(href) };
    const element = styleElement(style);
    if (!element) return link;
    styles.push(style.css);
    return element;
  });
  return { template: out, styles };
}
