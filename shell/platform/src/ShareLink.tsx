import type { MouseEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { getConfig } from './config';
import { canonicalUrl } from './headTags';
import { shareMailto, shareOrCopy } from './share';

/**
 * "Share" (docs/product.md, Tool detail: Share). Before and without script it is a link to an email carrying the
 * page's title, text and canonical address, so it shares on any browser; with the code, a click uses the device's
 * share sheet or copies the page's address instead (shareOrCopy).
 */
export function ShareLink({
  title,
  text,
  className,
  describedBy,
  onShare,
}: {
  title: string;
  text?: string;
  className?: string;
  describedBy?: string;
  onShare?: () => void;
}) {
  const { pathname } = useLocation();
  const href = shareMailto({ title, text, url: canonicalUrl(getConfig().siteOrigin, pathname) });
  const share = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    onShare?.();
    void shareOrCopy({ title, text, url: window.location.href });
  };
  return (
    <a className={className} href={href} aria-describedby={describedBy} onClick={share}>
      Share
    </a>
  );
}
