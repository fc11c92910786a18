import { getConfig } from './config';

/** Site-wide facts shared by the shell and the remotes. */
export const SITE_NAME = 'AI Tools Directory';

/** Social profiles (a professional network, a pin-board site, a blogging platform; docs/product.md, Routes). */
export const SOCIAL_LINKS = [
  { label: 'LinkedIn', href: 'https://www.linkedin.com/company/ai-tools-directory' },
  { label: 'Pinterest', href: 'https://www.pinterest.com/aitoolsdirectory/' },
  { label: 'Medium', href: 'https://medium.com/@aitoolsdirectory' },
] as const;

/** The shared contact address shown on /contact, /advertise and in error texts; operators set CONTACT_EMAIL. */
export function contactEmail(): string {
  return getConfig().contactEmail;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "November 23, 2026": a bare day ("2026-11-23") is that calendar day everywhere, a time is the reader's local day.
 *  Written by hand, not with Intl: its first use loads locale data, a long task on a phone (docs/performance.md). */
export function formatLongDate(date: Date | string): string {
  const d = typeof date === 'string' ? new Date(date) : date;
  if (Number.isNaN(d.getTime())) return '';
  return typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date)
    ? `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`
    : `${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}`;
}

/** The id of the shell's frame around a page's content: the skip link's target, focused by script (focusContent). */
export const CONTENT_ID = 'main-content';

/** Moves keyboard focus to the page's content, without scrolling: where the next Tab starts after a move to
 *  another page or back to the top (the control that had focus may be gone). */
export function focusContent(): void {
  document.getElementById(CONTENT_ID)?.focus({ preventScroll: true });
}

/** Scrolls to the top of the page: smoothly, unless the visitor asks for less motion (a script's smooth scroll
 *  overrides the style sheet's reduced-motion rule, so the script asks itself). */
export function scrollToTop(): void {
  const reduce = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  window.scrollTo({ top: 0, behavior: reduce ? 'auto' : 'smooth' });
}
