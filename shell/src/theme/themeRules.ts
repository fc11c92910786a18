/** Pure theme rules (SPEC section 4 and 9). */
export type Theme = 'light' | 'dark';

export const THEME_KEY = 'theme';
export const MANUAL_KEY = 'themeManual';
export const THEME_RECHECK_MS = 60_000;

/**
 * The initial theme: the saved manual choice if the manual flag is "true"; otherwise dark from 19:00 to 06:59;
 * otherwise the system colour-scheme preference. Self-contained on purpose: its source is also inlined into the
 * page head so the theme is set before first paint.
 */
export function resolveTheme(saved: string | null, manual: string | null, hour: number, prefersDark: boolean): Theme {
  if (manual === 'true' && (saved === 'dark' || saved === 'light')) return saved;
  if (hour >= 19 || hour < 7) return 'dark';
  return prefersDark ? 'dark' : 'light';
}

export function isNight(date: Date): boolean {
  return resolveTheme(null, null, date.getHours(), false) === 'dark';
}

/** Auto mode: the theme is the time's theme (dark at night, light by day). */
export function timeTheme(date: Date): Theme {
  return isNight(date) ? 'dark' : 'light';
}

/** A script for <head> that applies the theme before the first paint. */
export function themeBootScript(): string {
  return (
    `(function(r){try{var s=localStorage,t=r(s.getItem(${JSON.stringify(THEME_KEY)}),s.getItem(${JSON.stringify(MANUAL_KEY)}),` +
    `new Date().getHours(),matchMedia('(prefers-color-scheme: dark)').matches);` +
    `document.documentElement.dataset.theme=t;document.documentElement.style.colorScheme=t}` +
    `catch(e){document.documentElement.dataset.theme=r(null,null,new Date().getHours(),false)}})(${resolveTheme.toString()})`
  );
}
