import { describe, expect, it } from 'vitest';
import { LOGO_WIDTHS, logoPath, logoSources, logoWidthOf } from './images';

describe('logo addresses', () => {
  it('gives a generated logo a WebP copy per width, under the same digest', () => {
    const svg = logoPath('claude', 'claude', '#D97757');
    const [, digest] = /\?v=(\w+)$/.exec(svg)!;
    expect(logoSources(svg)).toBe(LOGO_WIDTHS.map((w) => `/logos/claude.webp?v=${digest}&w=${w} ${w}w`).join(', '));
  });

  it('has no copies for any other picture', () => {
    for (const other of ['https://acme.example/logo.svg', '/logos/claude.svg', '/covers/a.png?v=1', '/logos/a.png?v=1'])
      expect(logoSources(other), other).toBeUndefined();
  });

  it('reads ?w= as one of the widths, the tile itself when absent, and nothing else', () => {
    expect(logoWidthOf(undefined)).toBe(48);
    for (const w of LOGO_WIDTHS) expect(logoWidthOf(String(w))).toBe(w);
    for (const w of ['50', '0', '4800', '96px', ['96', '48']]) expect(logoWidthOf(w)).toBeNull();
  });
});
