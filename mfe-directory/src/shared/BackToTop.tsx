import { useEffect, useState } from 'react';
import { focusContent, scrollToTop } from '@aitools/platform';

/** Appears once the page is scrolled past `threshold` px (300 on the home page, 400 on a tool page). Used, it takes
 *  the visitor, and keyboard focus, to the top: the button goes away there, and focus must not go with it. */
export function BackToTop({ threshold }: { threshold: number }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > threshold);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [threshold]);
  if (!visible) return null;
  const backToTop = () => {
    scrollToTop();
    focusContent();
  };
  return (
    <button type="button" className="dir-back-to-top" onClick={backToTop} aria-label="Back to top">
      ↑
    </button>
  );
}
