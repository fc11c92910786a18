import { useEffect, useRef, useState, type ComponentPropsWithRef } from 'react';
import { coverSources } from '@aitools/contracts/images';

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

/** An image: a generated cover offers its WebP and PNG copies in every width (`coverSources`), each browser taking
 *  the first type it can show; any other picture is shown as it is. The `<picture>` takes no box of its own
 *  (`.blog-picture`), so the image is laid out as if it stood alone. */
export function CoverImage({ src, sizes, ...img }: ComponentPropsWithRef<'img'> & { src: string; sizes: string }) {
  const sources = coverSources(src);
  if (!sources) return <img src={src} {...img} />;
  return (
    <picture className="blog-picture">
      <source type="image/webp" srcSet={sources.webp} sizes={sizes} />
      <img src={src} srcSet={sources.png} sizes={sizes} {...img} />
    </picture>
  );
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
  return (
    <CoverImage
      ref={ref}
      className={className}
      src={src}
      sizes={CARD_SIZES}
      alt={alt}
      loading="lazy"
      onError={onError}
    />
  );
}
