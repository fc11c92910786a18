import { beforeEach, describe, expect, it } from 'vitest';
import { pruneExpired, saveScrollPosition, SCROLL_MAX_AGE_MS, takeScrollPosition } from './scrollMemory';

describe('scroll memory', () => {
  beforeEach(() => localStorage.clear());
  it('saves x, y and timestamp per path and gives it back once', () => {
    saveScrollPosition('/?page=2', 0, 1234, 1000);
    expect(takeScrollPosition('/?page=2', 2000)).toEqual({ x: 0, y: 1234, timestamp: 1000 });
    expect(takeScrollPosition('/?page=2', 2000)).toBeNull();
  });
  it('discards positions older than 30 minutes', () => {
    saveScrollPosition('/', 0, 500, 0);
    expect(takeScrollPosition('/', SCROLL_MAX_AGE_MS + 1)).toBeNull();
    expect(
      pruneExpired({ a: { x: 0, y: 1, timestamp: 0 }, b: { x: 0, y: 2, timestamp: 100 } }, SCROLL_MAX_AGE_MS + 50),
    ).toEqual({ b: { x: 0, y: 2, timestamp: 100 } });
  });
});
