import { useEffect, useRef, useState } from 'react';

// Backgrounds that keep white letters above AA contrast.
const TILE_COLOURS = ['#4338ca', '#0f766e', '#b91c1c', '#7e22ce', '#1d4ed8', '#a16207', '#be185d', '#15803d'];

function tileColour(name: string): string {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return TILE_COLOURS[h % TILE_COLOURS.length];
}

/** The tool's logo, or its coloured first-letter tile when there is none or the image fails. Fixed size: no layout shift. */
export function LogoTile({ name, logo, size = 48 }: { name: string; logo?: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  const img = useRef<HTMLImageElement>(null);
  useEffect(() => {
    // An image that failed before hydration fired its error event too early for React.
    if (img.current?.complete && img.current.naturalWidth === 0) setFailed(true);
  }, []);
  const style = { width: size, height: size };
  if (logo && !failed) {
    return (
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
