import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackToTop } from './BackToTop';

afterEach(() => vi.unstubAllGlobals());

function scrolledPage() {
  render(
    <div id="main-content" tabIndex={-1}>
      <BackToTop threshold={300} />
    </div>,
  );
  const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  act(() => {
    window.scrollY = 2000;
    fireEvent.scroll(window);
  });
  return scrollTo;
}

describe('BackToTop', () => {
  it('takes the visitor and keyboard focus to the top, smoothly', () => {
    vi.stubGlobal('matchMedia', () => ({ matches: false }));
    const scrollTo = scrolledPage();
    const button = screen.getByRole('button', { name: 'Back to top' });
    button.focus();
    fireEvent.click(button);
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
    // The button leaves at the top; focus is on the page's content, not lost to the body.
    expect(document.activeElement).toBe(document.getElementById('main-content'));
  });

  it('jumps without animation when the visitor asks for reduced motion', () => {
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q === '(prefers-reduced-motion: reduce)' }));
    const scrollTo = scrolledPage();
    fireEvent.click(screen.getByRole('button', { name: 'Back to top' }));
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'auto' });
  });
});
