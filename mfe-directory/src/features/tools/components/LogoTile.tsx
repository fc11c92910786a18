import { useEffect, useRef, useState } from 'react';
import { logoSources } from '@aitools/contracts/images';

// Backgrounds that keep white letters above AA contrast.
const TILE_COLOURS = ['#4338ca', '#0f766e', '#b91c1c', '#7e22ce', '#1d4ed8', '#a16207', '#be185d', '#15803d'];

function tileColour(name: string): string {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return TILE_COLOURS[h % TILE_COLOURS.length];
}

/** The tool's logo (a generated one from its WebP copies), or its coloured first-letter tile when there is none or
 *  the image fails. Fixed size: no layout shift. */
export function LogoTile({ name, logo, size = 48 }: { name: string; logo?: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  const img = useRef<HTMLImageElement>(null);
  useEffect(() => {
    // An image that failed before hydration fired its error event too early for React.
    if (img.current?.complete && img.current.naturalWidth === 0) setFailed(true);
  }, []);
  const style = { width: size, height: size };
  if (logo && !failed) {
    const image = (
      <img
        ref={img}
        className="dir-logo"
        src={logo}
        alt=""
        width={size}
        height={size}
        style={style}
        loading="lazy"
        onError={() => setFailed(true)}
      />
    );
    // A generated logo as WebP in the width the screen needs: decoded off the main thread, where an SVG image is a
    // document of its own (docs/performance.md, "Logos as WebP"); the SVG stays for browsers without WebP.
    const webp = logoSources(logo);
    return webp ? (
      <picture className="dir-logo-picture">
        <source type="image/webp" srcSet={webp} sizes={`${size}px`} />
        {image}
      </picture>
    ) : (
      image
    );
  }
  // The letter is half the tile: 24, 20 and 40 px for the tiles drawn (48, 40 and 80), sizes of the type scale.
  return (
    <span
      className="dir-logo dir-logo--letter"
      style={{ ...style, background: tileColour(name), fontSize: size / 2 }}
      aria-hidden="true"
    >
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}
