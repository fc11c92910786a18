import { formatLongDate } from '@aitools/platform';

/** "November 14, 2026" for the detail page's last-updated line (dates without a time read as UTC days). */
export function formatLastUpdated(date: string | undefined): string {
  return date ? formatLongDate(date) : '';
}

/** ISO date (YYYY-MM-DD) for structured data. */
export function isoDay(date: string | undefined): string | undefined {
  if (!date) return undefined;
  const d = new Date(date);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString().slice(0, 10);
}
