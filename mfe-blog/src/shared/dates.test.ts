import { describe, expect, it } from 'vitest';
import { calendarDay, formatNumericDate, formatPostDate } from './dates';

describe('dates', () => {
  it('formats US numeric month/day/year without leading zeros', () => {
    expect(formatNumericDate('2026-03-04')).toBe('3/4/2026');
    expect(formatNumericDate('2026-11-23')).toBe('11/23/2026');
  });

  it('formats the long date of the post page', () => {
    expect(formatPostDate('2026-03-04')).toBe('March 4, 2026');
  });

  it('reads the calendar day of a timestamp in UTC, so the server and the browser agree', () => {
    expect(calendarDay('2026-03-04T23:30:00.000Z')).toBe('2026-03-04');
    expect(formatNumericDate('2026-03-04T23:30:00Z')).toBe('3/4/2026');
    expect(formatPostDate('2026-12-31T00:00:00Z')).toBe('December 31, 2026');
  });

  it('shows nothing for a missing or invalid date', () => {
    expect(formatNumericDate('')).toBe('');
    expect(formatNumericDate('not a date')).toBe('');
    expect(formatPostDate('2026-13-45')).toBe('');
  });
});
