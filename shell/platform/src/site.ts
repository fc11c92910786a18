import { getConfig } from './config';

/** Site-wide facts shared by the shell and the remotes. */
export const SITE_NAME = 'AI Tools Directory';

/** Social profiles (SPEC: professional network, pin-board site, blogging platform). */
export const SOCIAL_LINKS = [
  { label: 'LinkedIn', href: 'https://www.linkedin.com/company/ai-tools-directory' },
  { label: 'Pinterest', href: 'https://www.pinterest.com/aitoolsdirectory/' },
  { label: 'Medium', href: 'https://medium.com/@aitoolsdirectory' },
] as const;

/** The shared contact address shown on /contact, /advertise and in error texts; operators set CONTACT_EMAIL. */
export function contactEmail(): string {
  return getConfig().contactEmail;
}

/** "November 23, 2026" */
export function formatLongDate(date: Date | string): string {
  const d = typeof date === 'string' ? new Date(date) : date;
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) ? 'UTC' : undefined,
  });
}
