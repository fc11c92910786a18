import { describe, expect, it } from 'vitest';
import { dateTimeSchema } from './dateTime';

describe('dateTimeSchema', () => {
  const check = (v: string) => dateTimeSchema('not a date').safeParse(v).success;

  it('takes a real date-time with its offset up to the last instant of the year 9999 in UTC', () => {
    expect(check('2026-11-23T10:00:00Z')).toBe(true);
    expect(check('2024-02-29T23:59:59.999+05:30')).toBe(true);
    expect(check('9999-12-31T23:59:59Z')).toBe(true);
    expect(check('0000-01-01T00:00:00Z')).toBe(true);
  });

  it('refuses an instant that is the year 10000 or -1 in UTC, whose ISO form would not sort as text', () => {
    expect(check('9999-12-31T23:59:59-14:00')).toBe(false);
    expect(check('0000-01-01T00:00:00+01:00')).toBe(false);
  });

  it('refuses what is not a date-time, with its message, and never throws', () => {
    for (const v of ['yesterday', '0', '2026-02-30T10:00:00Z', '2026-11-23T10:00:00', '+010000-01-01T00:00:00Z']) {
      const r = dateTimeSchema('not a date').safeParse(v);
      expect(r.success, v).toBe(false);
      expect(r.error?.issues[0]?.message).toBe('not a date');
    }
  });
});
