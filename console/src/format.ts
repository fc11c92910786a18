import type { Rate } from './types';

/** An ISO time as "2026-11-26 11:39 UTC" (the console states every time in UTC, as the audit trail stores it). */
export function utc(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** An error rate in percent, or null when nothing was counted. */
export function ratePercent(rate: Rate | undefined): number | null {
  if (rate === undefined || rate === null) return null;
  if (typeof rate === 'number') return rate;
  return rate.views ? (rate.errors / rate.views) * 100 : null;
}

/** "1.2% (3 errors in 250 views)", or "no views yet". */
export function rateText(rate: Rate | undefined): string {
  const pct = ratePercent(rate);
  if (pct === null) return 'no views yet';
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  if (typeof rate === 'object') return `${pct.toFixed(1)}% (${n(rate.errors, 'error')} in ${n(rate.views, 'view')})`;
  return `${pct.toFixed(1)}%`;
}
