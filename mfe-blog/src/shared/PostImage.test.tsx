import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { CardImage } from './PostImage';

describe('CardImage', () => {
  it('stays failed for the address that failed, whenever the error came, and starts over for a new address', () => {
    const { rerender } = render(<CardImage src="/covers/a.png" alt="A" className="card" />);
    fireEvent.error(screen.getByAltText('A'));
    expect(screen.getByText('Image failed to load')).toBeTruthy();
    rerender(<CardImage src="/covers/a.png" alt="A" className="card" />);
    expect(screen.getByText('Image failed to load')).toBeTruthy();
    rerender(<CardImage src="/covers/b.png" alt="B" className="card" />);
    expect(screen.getByAltText('B').getAttribute('src')).toBe('/covers/b.png');
  });

  it('offers a generated cover in the widths a card needs (400, 800, 1200 px), WebP first, and other pictures as they are', () => {
    const cover = '/covers/what-is-mcp.png?v=0a1b2c3d';
    const webp = '/covers/what-is-mcp.webp?v=0a1b2c3d';
    const sizes = '(min-width: 1024px) 360px, (min-width: 640px) 50vw, 100vw';
    render(<CardImage src={cover} alt="Cover" className="card" />);
    const img = screen.getByAltText('Cover');
    expect(img.getAttribute('src')).toBe(cover);
    expect(img.getAttribute('srcset')).toBe(`${cover}&w=400 400w, ${cover}&w=800 800w, ${cover} 1200w`);
    expect(img.getAttribute('sizes')).toBe(sizes);
    expect(img.getAttribute('loading')).toBe('lazy');
    // The browser takes the first source whose type it shows, before the <img>'s own candidates.
    const picture = img.parentElement!;
    expect(picture.tagName).toBe('PICTURE');
    expect([...picture.children].map((e) => e.tagName)).toEqual(['SOURCE', 'IMG']);
    const source = picture.querySelector('source')!;
    expect(source.getAttribute('type')).toBe('image/webp');
    expect(source.getAttribute('srcset')).toBe(`${webp}&w=400 400w, ${webp}&w=800 800w, ${webp} 1200w`);
    expect(source.getAttribute('sizes')).toBe(sizes);

    render(<CardImage src="https://images.example.com/photo.jpg" alt="Photo" className="card" />);
    const photo = screen.getByAltText('Photo');
    expect(photo.parentElement!.tagName).not.toBe('PICTURE');
    expect(photo.hasAttribute('srcset')).toBe(false);
    expect(photo.hasAttribute('sizes')).toBe(false);
  });

  it('says so when there is no image', () => {
    render(<CardImage src="" alt="None" className="card" />);
    expect(screen.getByText('No image available')).toBeTruthy();
  });
});
