import { describe, expect, it } from 'vitest';
import { placeGuess, placeGuessInWindow, type WordsRanking } from './placement';

/** The words' ranking as the engine answers it, over a list held here. */
function engine(words: number[]): WordsRanking & { reads: number } {
  const e = {
    reads: 0,
    async window(offset: number, limit: number) {
      e.reads++;
      const ids = words.slice(offset, offset + limit);
      return { ids, total: ids.length ? words.length : 0 };
    },
    async orderOf(ids: number[]) {
      return words.filter((id) => ids.includes(id));
    },
  };
  return e;
}

describe('the meaning guess in the ranking', () => {
  it('is fifth, after the words’ first four, and leaves its later place', () => {
    expect(placeGuess([1, 2, 3, 4, 5, 6, 7], 99)).toEqual([1, 2, 3, 4, 99, 5, 6, 7]);
    expect(placeGuess([1, 2, 3, 4, 5, 6, 7], 6)).toEqual([1, 2, 3, 4, 6, 5, 7]);
  });

  it('changes nothing when the words placed it among the first four, or found nothing', () => {
    expect(placeGuess([1, 2, 3, 4, 5], 3)).toEqual([1, 2, 3, 4, 5]);
    expect(placeGuess([], 3)).toEqual([]);
  });

  it('follows fewer than four found by the words', () => {
    expect(placeGuess([1, 2], 9)).toEqual([1, 2, 9]);
  });

  it('gives every window of the ranking as the whole list cut, with its count', async () => {
    const lists = [[], [1], [1, 2, 3], [1, 2, 3, 4], [1, 2, 3, 4, 5], Array.from({ length: 23 }, (_, i) => i + 1)];
    for (const words of lists)
      for (const guess of [...words, 100])
        for (const limit of [1, 2, 3, 5, 10])
          for (let offset = 0; offset <= words.length + 2; offset++) {
            const whole = placeGuess(words, guess);
            const got = await placeGuessInWindow(engine(words), guess, offset, limit);
            const want = whole.slice(offset, offset + limit);
            expect(got.ids, JSON.stringify({ words, guess, offset, limit })).toEqual(want);
            if (want.length) expect(got.total).toBe(whole.length);
          }
  });

  it('reads a bounded part of the ranking, wherever the window is', async () => {
    const words = Array.from({ length: 10_000 }, (_, i) => i + 1);
    const e = engine(words);
    expect((await placeGuessInWindow(e, 5_000, 9_000, 20)).ids[0]).toBe(9_001);
    expect(e.reads).toBeLessThanOrEqual(2);
  });
});
