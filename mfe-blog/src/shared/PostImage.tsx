import { useEffect, useRef, useState } from 'react';
import { coverSrcSet } from '@aitools/contracts/images';

/**
 * An image that reports whether it failed. An error that happened before hydration fired no React event,
 * so the effect also checks the element once mounted.
 */
export function useImageFailed(src: string) {
  const ref = useRef<HTMLImageElement>(null);
  // The address that failed, not a flag: a new address starts unfailed with nothing to reset, so an error that
  // arrives before the effect runs is never undone by it.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0 && src) setFailedSrc(src);
  }, [src]);
  return { ref, failed: failedSrc === src, onError: () => setFailedSrc(src) };
}

/** The blog grid's card width: one column on phones, two from 640 px, three of the 1,120 px page from 1,024 px. */
const CARD_SIZES = '(min-width: 1024px) 360px, (min-width: 640px) 50vw, 100vw';

/** Card image: the picture (a generated cover in the width the card needs), or "No image available" / "Image
 *  failed to load". */
export function CardImage({ src, alt, className }: { src: string; alt: string; className: string }) {
  const { ref, failed, onError } = useImageFailed(src);
  if (!src || failed) {
    return (
      <div className={`${className} blog-image--placeholder`}>
        <span>{src ? 'Image failed to load' : 'No image available'}</span>
      </div>
    );
  }
  const srcSet = coverSrcSet(src);
  return (
    <img
      ref={ref}
      className={className}
      src={src}
      srcSet={srcSet}
      sizes={srcSet && CARD_SIZES}
      alt={alt}
      loading="lazy"
      onError={onError}
    />
  );
}
