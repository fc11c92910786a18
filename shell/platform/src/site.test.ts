import { describe, expect, it } from 'vitest';
import { formatLongDate } from './site';

describe('formatLongDate', () => {
  it('writes the long US format; a bare day is that calendar day everywhere', () => {
    expect(formatLongDate('2026-11-14')).toBe('November 14, 2026');
    expect(formatLongDate(new Date(2026, 0, 2))).toBe('January 2, 2026');
  });
  it('answers an empty string for an invalid date', () => {
    expect(formatLongDate('not a date')).toBe('');
  });
});
