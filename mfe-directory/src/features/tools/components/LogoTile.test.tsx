import { describe, expect, it } from 'vitest';
import { fireEvent, render } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { LogoTile } from './LogoTile';

const GENERATED = '/logos/claude.svg?v=f2f30471';

describe('LogoTile', () => {
  it('offers a generated logo as WebP in every width, sized to its tile, with the SVG for browsers without WebP', () => {
    const { container } = render(<LogoTile name="Claude" logo={GENERATED} size={40} />);
    const source = container.querySelector('picture > source')!;
    expect(source.getAttribute('type')).toBe('image/webp');
    expect(source.getAttribute('sizes')).toBe('40px');
    expect(source.getAttribute('srcset')).toBe(
      [48, 96, 144, 240].map((w) => `/logos/claude.webp?v=f2f30471&w=${w} ${w}w`).join(', '),
    );
    const img = container.querySelector('picture > img')!;
    expect(img.getAttribute('src')).toBe(GENERATED);
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['40', '40']);
  });

  it('renders the same picture on the server, so hydration keeps it', () => {
    const html = renderToString(<LogoTile name="Claude" logo={GENERATED} />);
    expect(html).toMatch(/^<picture class="dir-logo-picture"><source type="image\/webp" srcSet="[^"]+&amp;w=48 48w/);
  });

  it('shows any other address as it is', () => {
    const { container } = render(<LogoTile name="Acme" logo="https://acme.example/logo.png" />);
    expect(container.querySelector('picture')).toBeNull();
    expect(container.querySelector('img')!.getAttribute('src')).toBe('https://acme.example/logo.png');
  });

  it('falls back to the letter tile when the image fails, or when there is none', () => {
    const { container } = render(<LogoTile name="claude" logo={GENERATED} />);
    fireEvent.error(container.querySelector('img')!);
    expect(container.querySelector('picture')).toBeNull();
    expect(container.querySelector('.dir-logo--letter')!.textContent).toBe('C');
    const none = render(<LogoTile name="zed" />);
    expect(none.container.querySelector('.dir-logo--letter')!.textContent).toBe('Z');
  });
});
