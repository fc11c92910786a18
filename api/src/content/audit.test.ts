import { describe, expect, it } from 'vitest';
import { namesWithin } from './audit';

describe('namesWithin', () => {
  const slugs = Array.from({ length: 47 }, (_, i) => `tool-number-${i + 1}`);

  it('names them all when they fit', () => {
    expect(namesWithin(['a', 'b', 'c'], 100)).toBe('a, b, c');
  });

  it('names as many as fit and counts the rest, never past the room', () => {
    const text = namesWithin(slugs, 120);
    expect(text.length).toBeLessThanOrEqual(120);
    expect(text).toMatch(/^tool-number-1, tool-number-2, .* and \d+ more$/);
    const shown = text.split(' and ')[0]!.split(', ').length;
    expect(text.endsWith(` and ${47 - shown} more`)).toBe(true);
  });

  it('says only how many when not even one fits', () => {
    expect(namesWithin(slugs, 10)).toBe('47 more');
  });
});
