/**
 * "Did you mean ...?" for a search that found nothing: the tool names, name words and tags closest to the text by
 * edit distance, keeping only suggestions that would find something (the search is "name or description contains").
 * Pure, so the server (GET /api/tools?search=) and the directory page in the browser give the same answer.
 */
import { distance } from 'fastest-levenshtein';
import { containsAt, searchTextOf } from './searchText';

export interface SuggestionSource {
  name: string;
  description?: string;
  tags?: string[];
}

/** Typos allowed grow with the length of the word: 1 up to 4 letters, 2 up to 8, then 3. */
const allowedEdits = (length: number) => (length <= 4 ? 1 : length <= 8 ? 2 : 3);
const WORD_SPLIT = /[\s()[\]{},;:!?"'/&+|]+/;

interface Term {
  text: string;
  lowered: string;
  /** The lower-cased letters in order, for spotting swapped letters. */
  letters: string;
  /** Name words and whole names are shown as written (GitHub, PostgreSQL); tags only when no name spells them. */
  fromName: boolean;
}

const sortedLetters = (s: string) => [...s].sort().join('');

// Per list, like its search text (searchText.ts): the names, words and tags do not change with the text typed.
const vocabularies = new WeakMap<readonly SuggestionSource[], Term[]>();

function vocabulary(tools: SuggestionSource[]): Term[] {
  const known = vocabularies.get(tools);
  if (known) return known;
  const terms = new Map<string, Term>();
  const add = (raw: string, fromName: boolean) => {
    const text = raw.trim().replace(/^[.\-_]+|[.\-_]+$/g, '');
    if (text.length < 3) return;
    const key = text.toLowerCase();
    const seen = terms.get(key);
    if (!seen || (fromName && !seen.fromName))
      terms.set(key, { text, lowered: key, letters: sortedLetters(key), fromName });
  };
  for (const t of tools) {
    add(t.name, true);
    t.name.split(WORD_SPLIT).forEach((w) => add(w, true));
    for (const tag of t.tags ?? []) {
      add(tag, false);
      tag.split(/[-_\s]+/).forEach((w) => add(w, false));
    }
  }
  const list = [...terms.values()];
  vocabularies.set(tools, list);
  return list;
}

function countMatches(tools: SuggestionSource[], text: string): number {
  const q = text.toLowerCase();
  const lowered = searchTextOf(tools);
  let n = 0;
  for (let i = 0; i < tools.length; i++) if (containsAt(lowered, i, q)) n++;
  return n;
}

function closest(word: string, terms: Term[]): { term: Term; edits: number }[] {
  const w = word.toLowerCase();
  const letters = sortedLetters(w);
  const max = allowedEdits(w.length);
  const out: { term: Term; edits: number }[] = [];
  for (const term of terms) {
    if (Math.abs(term.text.length - w.length) > max) continue;
    const t = term.lowered;
    // Swapped letters ("calude") count as one typo, as in Damerau's distance.
    const edits = Math.min(distance(w, t), letters === term.letters && w !== t ? 1 : Infinity);
    if (edits > 0 && edits <= max) out.push({ term, edits });
  }
  return out.sort((a, b) => a.edits - b.edits);
}

/** Up to `max` suggestions, closest first (then those finding more tools); [] for an empty or too short text. */
export function didYouMean(text: string, tools: SuggestionSource[], max = 3): string[] {
  const query = text.trim().replace(/\s+/g, ' ');
  if (query.length < 3) return [];
  const terms = vocabulary(tools);
  const scored = new Map<string, { text: string; edits: number; hits: number }>();
  const consider = (suggestion: string, edits: number) => {
    const key = suggestion.toLowerCase();
    if (key === query.toLowerCase() || scored.has(key)) return;
    const hits = countMatches(tools, suggestion);
    if (hits > 0) scored.set(key, { text: suggestion, edits, hits });
  };
  // The whole text against names, words and tags ...
  for (const { term, edits } of closest(query, terms).slice(0, 20)) consider(term.text, edits);
  // ... and, for several words, each word corrected on its own ("githb server" -> "GitHub server").
  const words = query.split(' ');
  if (words.length > 1) {
    let edits = 0;
    const fixed = words.map((w) => {
      if (w.length < 3 || terms.some((t) => t.lowered === w.toLowerCase())) return w;
      const best = closest(w, terms)[0];
      if (!best) return w;
      edits += best.edits;
      return best.term.text;
    });
    if (edits > 0) consider(fixed.join(' '), edits);
    // The phrase may find nothing as a whole; its corrected words alone still help.
    for (const w of words)
      if (w.length >= 3) for (const { term, edits: e } of closest(w, terms).slice(0, 5)) consider(term.text, e);
  }
  const ranked = [...scored.values()].sort(
    (a, b) => a.edits - b.edits || b.hits - a.hits || a.text.length - b.text.length,
  );
  // Beyond the closest, only near misses that start like the text ("githb": GitHub, then Git and GitLab).
  const best = ranked[0]?.edits ?? 0;
  const first = query[0].toLowerCase();
  return ranked
    .filter((s) => s.edits === best || (s.edits === best + 1 && s.text[0].toLowerCase() === first))
    .slice(0, max)
    .map((s) => s.text);
}
