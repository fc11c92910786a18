/** Pure theme rules (docs/product.md, Theme). */
export type Theme = 'light' | 'dark';

export const THEME_KEY = 'theme';
export const MANUAL_KEY = 'themeManual';
export const THEME_RECHECK_MS = 60_000;

/**
 * THE theme rule, the only one: the head script before the first paint, the first render after hydration, the
 * 60-second recheck and "Auto theme" all call it with the same inputs.
 *   1. The manual flag is "true" and a theme (light or dark) is saved: that theme.
 *   2. Otherwise, from 19:00 to 06:59 local time: dark.
 *   3. Otherwise: the system colour-scheme preference (dark if it prefers dark, else light).
 * So a visitor whose system prefers dark gets dark at every hour, and auto mode only changes the theme when the
 * clock crosses 07:00 or 19:00 for a light-preferring visitor, or when the system preference itself changes.
 * Self-contained on purpose: its source is also inlined into the page head (themeBootScript).
 */
export function resolveTheme(saved: string | null, manual: string | null, hour: number, prefersDark: boolean): Theme {
  if (manual === 'true' && (saved === 'dark' || saved === 'light')) return saved;
  if (hour >= 19 || hour < 7) return 'dark';
  return prefersDark ? 'dark' : 'light';
}

/** Auto mode (no manual choice): the rule above at this time with this system preference. */
export function autoTheme(date: Date, prefersDark: boolean): Theme {
  return resolveTheme(null, null, date.getHours(), prefersDark);
}

/**
 * A script for <head> that applies the theme before the first paint. Storage and the media query are read
 * separately, each failing to "nothing saved" / "no preference" exactly as readStorage and prefersDark() do
 * after hydration, so both sides always feed the rule the same inputs.
 */
export function themeBootScript(): string {
  return (
    `(function(r){var s=null,m=null,p=false,d=document.documentElement,t;` +
    `try{p=matchMedia('(prefers-color-scheme: dark)').matches}catch(e){}` +
    `try{s=localStorage.getItem(${JSON.stringify(THEME_KEY)});m=localStorage.getItem(${JSON.stringify(MANUAL_KEY)})}catch(e){}` +
    `t=r(s,m,new Date().getHours(),p);d.dataset.theme=t;d.style.colorScheme=t})(${resolveTheme.toString()})`
  );
}
