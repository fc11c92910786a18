/**
 * The directory's search reads "name or description contains the text, ignoring case" (SPEC section 4). Lower-casing
 * 10,000 names and descriptions costs more than the search itself, so each list's text is lower-cased once and kept
 * with the list (a list is never changed in place: the API holds one per data version, the browser one whole list).
 */
export interface Searchable {
  name: string;
  description?: string;
}

export interface SearchText {
  /** The lower-cased name and description of each item, in the list's order. */
  name: string[];
  description: string[];
}

const held = new WeakMap<readonly Searchable[], SearchText>();

export function searchTextOf(items: readonly Searchable[]): SearchText {
  let text = held.get(items);
  if (!text) {
    text = { name: items.map((t) => t.name.toLowerCase()), description: items.map((t) => (t.description ?? '').toLowerCase()) };
    held.set(items, text);
  }
  return text;
}

/** Whether item `i` contains `lowered` (already lower-cased and trimmed). */
export const containsAt = (text: SearchText, i: number, lowered: string): boolean => text.name[i].includes(lowered) || text.description[i].includes(lowered);
