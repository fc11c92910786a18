import { z } from 'zod';

/**
 * A real date and time in ISO 8601 / RFC 3339 with its offset ("2026-11-23T10:00:00.000Z"): "0", February 30 or hour
 * 24 are refused, where Date.parse would read some of them as another day; and the instant falls within years 0000
 * to 9999 in UTC, so it is stored as a 24-character string that sorts as text ("9999-12-31T23:59:59-14:00" is year
 * 10000 in UTC, which toISOString writes "+010000-...", before every other date as text).
 */
/** A stored date's text as a Date, or null when there is none or it is not one Date.parse reads. */
export function dateOrNull(value: string | null | undefined): Date | null {
  return value && !Number.isNaN(Date.parse(value)) ? new Date(value) : null;
}

export function dateTimeSchema(message: string) {
  return z.iso.datetime({ offset: true, error: message }).refine((v) => {
    // A string the format check refused is that check's to report.
    const at = new Date(v);
    return Number.isNaN(at.getTime()) || /^\d{4}-/.test(at.toISOString());
  }, message);
}
