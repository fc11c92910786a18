import { getConfig } from '@aitools/platform';

/** The origin page addresses are built on for route heads (canonical links use the configured site origin). */
export function siteOrigin(): string {
  return typeof window !== 'undefined' ? window.location.origin : getConfig().siteOrigin;
}
