import { useEffect, useState } from 'react';

/** Appears once the page is scrolled past `threshold` px (300 on the home page, 400 on a tool page). */
export function BackToTop({ threshold }: { threshold: number }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > threshold);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [threshold]);
  if (!visible) return null;
  return (
    <button
      type="button"
      className="dir-back-to-top"
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
      aria-label="Back to top"
    >
      ↑
    </button>
  );
}
