import { formatLongDate } from '@aitools/platform';

/** The calendar day of a post date, read in UTC so the server and every browser agree (no hydration mismatch). */
export function calendarDay(value: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) {
    const day = value.slice(0, 10);
    return Number.isNaN(Date.parse(day)) ? null : day;
  }
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().slice(0, 10);
}

/** US numeric date, "3/4/2026" (featured card and post cards). */
export function formatNumericDate(value: string): string {
  const day = calendarDay(value);
  if (!day) return '';
  const [y, m, d] = day.split('-').map(Number);
  return `${m}/${d}/${y}`;
}

/** Long US date, "March 4, 2026" (post page). */
export function formatPostDate(value: string): string {
  const day = calendarDay(value);
  return day ? formatLongDate(day) : '';
}
