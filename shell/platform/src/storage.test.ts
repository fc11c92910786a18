import { describe, expect, it, vi } from 'vitest';
import { readJson, readStorage, writeJson, writeStorage } from './storage';

describe('storage', () => {
  it('round-trips values and JSON', () => {
    writeStorage('k', 'v');
    expect(readStorage('k')).toBe('v');
    writeJson('j', { a: 1 });
    expect(readJson('j', null)).toEqual({ a: 1 });
    expect(readJson('missing', 'fallback')).toBe('fallback');
    writeStorage('bad', '{not json');
    expect(readJson('bad', 7)).toBe(7);
  });

  it('only warns when storage throws', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const get = vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('denied');
    });
    const set = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('quota');
    });
    expect(readStorage('k')).toBeNull();
    expect(() => writeStorage('k', 'v')).not.toThrow();
    expect(warn).toHaveBeenCalledTimes(2);
    get.mockRestore();
    set.mockRestore();
  });
});
