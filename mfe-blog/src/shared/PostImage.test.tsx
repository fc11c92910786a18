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

  it('offers a generated cover in the widths a card needs (400, 800, 1200 px), and any other picture as it is', () => {
    const cover = '/covers/what-is-mcp.png?v=0a1b2c3d';
    render(<CardImage src={cover} alt="Cover" className="card" />);
    const img = screen.getByAltText('Cover');
    expect(img.getAttribute('srcset')).toBe(`${cover}&w=400 400w, ${cover}&w=800 800w, ${cover} 1200w`);
    expect(img.getAttribute('sizes')).toBe('(min-width: 1024px) 360px, (min-width: 640px) 50vw, 100vw');
    expect(img.getAttribute('loading')).toBe('lazy');
    render(<CardImage src="https://images.example.com/photo.jpg" alt="Photo" className="card" />);
    expect(screen.getByAltText('Photo').hasAttribute('srcset')).toBe(false);
    expect(screen.getByAltText('Photo').hasAttribute('sizes')).toBe(false);
  });

  it('says so when there is no image', () => {
    render(<CardImage src="" alt="None" className="card" />);
    expect(screen.getByText('No image available')).toBeTruthy();
  });
});
