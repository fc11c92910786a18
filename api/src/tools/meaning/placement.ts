/**
 * Where the meaning's guess goes in the words' ranking (docs/product.md, Directory search): the first four places
 * stay the words' best matches; the fifth is the tool nearest in meaning to the typed text, unless the words placed it
 * among the first four already; the rest follow the words' order, without it. With fewer than four found by the words,
 * the guess follows them. A search the words find nothing for gets no guess (its page says so, with "Did you mean").
 */

/** The guess's place: after the words' first four. */
export const GUESS_PLACE = 4;

/** The whole ranked list: `words` (the words' ranking, best first) with `guess` placed. */
export function placeGuess(words: readonly number[], guess: number): number[] {
  if (!words.length || words.slice(0, GUESS_PLACE).includes(guess)) return [...words];
  const rest = words.filter((id) => id !== guess);
  return [...rest.slice(0, GUESS_PLACE), guess, ...rest.slice(GUESS_PLACE)];
}

export interface Ranked {
  ids: number[];
  total: number;
}

/** What a window of the words' ranking needs from the engine. */
export interface WordsRanking {
  /** `limit` ids of the words' ranking from `offset`, and how many it holds (0 with no ids). */
  window(offset: number, limit: number): Promise<Ranked>;
  /** Those of `ids` the words' ranking holds, in its order. */
  orderOf(ids: number[]): Promise<number[]>;
}

/**
 * The window `limit` from `offset` of the words' ranking with `guess` placed, and the count, reading only the words'
 * window one place earlier (a place after the guess shifts by one), their first four, and where the guess stands.
 */
export async function placeGuessInWindow(
  words: WordsRanking,
  guess: number,
  offset: number,
  limit: number,
  /** The words' window from one place earlier (`limit + 1` from `offset - 1`), when already read. */
  read?: Ranked,
): Promise<Ranked> {
  const start = Math.max(0, offset - 1);
  const page = read ?? (await words.window(start, limit + 1));
  if (!page.ids.length) return start === offset ? page : { ids: [], total: 0 };
  const top =
    start === 0 && page.ids.length >= Math.min(GUESS_PLACE, page.total)
      ? page.ids
      : (await words.window(0, GUESS_PLACE)).ids;
  const at = (i: number) => page.ids[i - start];
  if (top.slice(0, GUESS_PLACE).includes(guess)) {
    const ids = page.ids.slice(offset - start, offset - start + limit);
    return { ids, total: page.total };
  }
  // Where the guess stands in the words' ranking: in this window, before it, after it, or not found by the words.
  const inPage = page.ids.indexOf(guess);
  const known = inPage >= 0 ? [guess] : await words.orderOf([guess, page.ids[0]!]);
  const found = known.includes(guess);
  const position = inPage >= 0 ? start + inPage : found && known[0] === guess ? -1 : Infinity;
  const place = Math.min(GUESS_PLACE, page.total);
  // The words' ranking without the guess, at k.
  const without = (k: number) => (position > k ? at(k) : at(k + 1));
  const ids: number[] = [];
  for (let i = offset; i < offset + limit; i++) {
    const id = i < place ? at(i) : i === place ? guess : without(i - 1);
    if (id === undefined) break;
    ids.push(id);
  }
  return { ids, total: page.total + (found ? 0 : 1) };
}
