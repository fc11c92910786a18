import { useEffect, useRef, useState } from 'react';

/**
 * An image that reports whether it failed. An error that happened before hydration fired no React event,
 * so the effect also checks the element once mounted.
 */
export function useImageFailed(src: string) {
  const ref = useRef<HTMLImageElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    setFailed(false);
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0 && src) setFailed(true);
  }, [src]);
  return { ref, failed, onError: () => setFailed(true) };
}

/** Card image: the picture, or "No image available" / "Image failed to load". */
export function CardImage({ src, alt, className }: { src: string; alt: string; className: string }) {
  const { ref, failed, onError } = useImageFailed(src);
  if (!src || failed) {
    return (
      <div className={`${className} blog-image--placeholder`}>
        <span>{src ? 'Image failed to load' : 'No image available'}</span>
      </div>
    );
  }
  return <img ref={ref} className={className} src={src} alt={alt} loading="lazy" onError={onError} />;
}
