import { describe, expect, it } from 'vitest';
import { obfuscateEmail } from './email';
import { formatLastUpdated, isoDay } from './dates';

describe('email obfuscation', () => {
  it('writes name[at]domain[dot]tld and reads it back', () => {
    expect(obfuscateEmail('hello@aitools.example.com')).toBe('hello[at]aitools[dot]example[dot]com');
    expect(obfuscateEmail('first.last@x.io')).toBe('first.last[at]x[dot]io');
    const readBack = (text: string) => text.replace(/\[at\]/g, '@').replace(/\[dot\]/g, '.');
    expect(readBack(obfuscateEmail('hello@aitools.example.com'))).toBe('hello@aitools.example.com');
    expect(obfuscateEmail('not-an-email')).toBe('not-an-email');
  });
});

describe('dates', () => {
  it('formats last updated in long US form, the day as written', () => {
    expect(formatLastUpdated('2026-11-14')).toBe('November 14, 2026');
    expect(formatLastUpdated('2026-01-01')).toBe('January 1, 2026');
    expect(formatLastUpdated(undefined)).toBe('');
    expect(formatLastUpdated('not a date')).toBe('');
  });
  it('gives ISO days for structured data', () => {
    expect(isoDay('2026-11-14')).toBe('2026-11-14');
    expect(isoDay('garbage')).toBeUndefined();
  });
});
