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

  it('says so when there is no image', () => {
    render(<CardImage src="" alt="None" className="card" />);
    expect(screen.getByText('No image available')).toBeTruthy();
  });
});
