import { describe, expect, it, vi } from 'vitest';
import { formatLongDate } from './site';

describe('formatLongDate', () => {
  it('writes the long US format; a bare day is that calendar day everywhere', () => {
    expect(formatLongDate('2026-11-14')).toBe('November 14, 2026');
    expect(formatLongDate(new Date(2026, 0, 2))).toBe('January 2, 2026');
  });
  it('writes what Intl writes, without asking Intl (whose first use is a long task on a phone)', () => {
    const days = ['2026-01-01', '2026-02-28', '2024-02-29', '2026-07-04', '2026-12-31', '1999-10-09'];
    const intl = days.map((day) =>
      new Date(day).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }),
    );
    const local = new Date(2026, 8, 30, 23, 59);
    const localIntl = local.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
    const format = vi.spyOn(Intl, 'DateTimeFormat');
    const toLocale = vi.spyOn(Date.prototype, 'toLocaleDateString');
    try {
      expect(days.map((day) => formatLongDate(day))).toEqual(intl);
      expect(formatLongDate(local)).toBe(localIntl);
      expect(format).not.toHaveBeenCalled();
      expect(toLocale).not.toHaveBeenCalled();
    } finally {
      format.mockRestore();
      toLocale.mockRestore();
    }
  });
  it('answers an empty string for an invalid date', () => {
    expect(formatLongDate('not a date')).toBe('');
  });
});
