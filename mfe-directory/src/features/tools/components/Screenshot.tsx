import { useEffect, useRef, useState } from 'react';

/** The tool's screenshot, removed when it fails to load (also when it failed before hydration). */
export function Screenshot({ src, alt }: { src: string; alt: string }) {
  const [failed, setFailed] = useState(false);
  const img = useRef<HTMLImageElement>(null);
  useEffect(() => {
    if (img.current?.complete && img.current.naturalWidth === 0) setFailed(true);
  }, []);
  if (failed) return null;
  return (
    <figure className="dir-screenshot">
      <img
        ref={img}
        src={src}
        alt={alt}
        width={1280}
        height={800}
        loading="lazy"
        decoding="async"
        onError={() => setFailed(true)}
      />
    </figure>
  );
}
