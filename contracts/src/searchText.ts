/**
 * The directory's search reads "name or description contains the text, ignoring case" (docs/product.md, Directory search), and for an
 * inspected MCP server also the names of the tools it offers (a search for `browser_navigate` finds Playwright). Lower-casing
 * 10,000 names and descriptions costs more than the search itself, so each list's text is lower-cased once and kept
 * with the list (a list is never changed in place: the API holds one per data version, the browser one whole list).
 */
export interface Searchable {
  name: string;
  description?: string;
  mcpTools?: string[];
}

export interface SearchText {
  /** The lower-cased name and description of each item, in the list's order. */
  name: string[];
  description: string[];
  /** The lower-cased MCP tool names of each item, one line each ('' for none). */
  mcpTools: string[];
}

const held = new WeakMap<readonly Searchable[], SearchText>();

export function searchTextOf(items: readonly Searchable[]): SearchText {
  let text = held.get(items);
  if (!text) {
    text = {
      name: items.map((t) => t.name.toLowerCase()),
      description: items.map((t) => (t.description ?? '').toLowerCase()),
      mcpTools: items.map((t) => (t.mcpTools ?? []).join('\n').toLowerCase()),
    };
    held.set(items, text);
  }
  return text;
}

/** Whether item `i` contains `lowered` (already lower-cased and trimmed). */
export const containsAt = (text: SearchText, i: number, lowered: string): boolean =>
  text.name[i].includes(lowered) ||
  text.description[i].includes(lowered) ||
  (text.mcpTools[i] !== '' && text.mcpTools[i].includes(lowered));
