/**
 * What a typed search means to the directory's ranking (docs/product.md, Directory search): its words, without
 * stop words, or a phrase the vocabulary (data/search-vocabulary.json) knows, each with the other words it gives for
 * the same idea. Words are letters and digits only (a phrase: words apart by one space, which both engines read as a
 * phrase), so nothing typed reaches a search engine as syntax: quotes, `*`, `NEAR`, `AND`, `OR`, `NOT` and control
 * characters are separators or plain words.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stemmer } from 'stemmer';
import { DATA_DIR } from '../paths';

/** More words than this add nothing a visitor meant and only cost work. */
export const MAX_WORDS = 8;
const MAX_WORD_LENGTH = 40;

/** English stop words (the Postgres "english" list, so both engines read the same words), plus the words every
 *  listing shares ("ai", "tool") or that only say a visitor is looking ("find", "want"). */
const STOP_WORDS = new Set(
  `i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it
  its itself they them their theirs themselves what which who whom this that these those am is are was were be been
  being have has had having do does did doing a an the and but if or because as until while of at by for with about
  against between into through during before after above below to from up down in out on off over under again further
  then once here there when where why how all any both each few more most other some such no nor not only own same so
  than too very s t can will just don should now
  ai tool tools app apps software something someone thing things want need needs find looking help helps let lets
  using use way best good please assistant assistants make create automatically
  get gets put say like go really also much many lot lots`
    .split(/\s+/)
    .filter(Boolean),
);

interface Vocabulary {
  groups: string[][];
  /** Words sharing a stem with an entry but not its idea ("programs" and "programming"): known only as themselves. */
  apart?: string[];
}

/** Whether an entry is searched for as it is: not a stop word, nor a phrase that starts or ends with one (Postgres
 *  drops those, and "own servers" would be read as "servers"). Such a phrase is still known when typed. */
const searchable = (entry: string) => !STOP_WORDS.has(entry.split(' ')[0]) && !STOP_WORDS.has(entry.split(' ').at(-1)!);

/** The longest vocabulary entry, in words ("text to speech"). */
const MAX_PHRASE = 3;

/** How the vocabulary knows a word or a phrase: the stems of its words, apart by a space. */
const keyOf = (entry: string) => entry.split(' ').map(stemmer).join(' ');

interface Known {
  /** Key (a word's stem, or a phrase's) → the entries of every vocabulary group with a member of that key. */
  byKey: Map<string, string[]>;
  apart: Set<string>;
}

function loadVocabulary(file = join(DATA_DIR, 'search-vocabulary.json')): Known {
  const { groups, apart = [] } = JSON.parse(readFileSync(file, 'utf8')) as Vocabulary;
  const byKey = new Map<string, Set<string>>();
  for (const group of groups)
    for (const entry of group) {
      const set = byKey.get(keyOf(entry)) ?? new Set();
      for (const other of group) set.add(other);
      byKey.set(keyOf(entry), set);
    }
  return { byKey: new Map([...byKey].map(([key, entries]) => [key, [...entries]])), apart: new Set(apart) };
}

let vocabulary: Known | undefined;

/** A text's words, lower-cased, in the order typed (stop words and repeats kept). */
function tokensOf(text: string): string[] {
  const words =
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.map((w) => w.slice(0, MAX_WORD_LENGTH));
}

/** The words a search is made of, lower-cased, in the order typed, without stop words or repeats. */
export function wordsOf(text: string): string[] {
  return [...new Set(tokensOf(text).filter((w) => !STOP_WORDS.has(w)))].slice(0, MAX_WORDS);
}

/**
 * One group per typed idea: the typed word, or a phrase of up to MAX_PHRASE words the vocabulary knows ("own
 * servers"), first, then the vocabulary's other words for it. Stop words count only inside a known phrase.
 */
export function searchWords(text: string): string[][] {
  const { byKey: known, apart } = (vocabulary ??= loadVocabulary());
  // A hyphenated word the vocabulary knows joined ("to-dos" → todos, "e-mail" → email) is that word, not its parts.
  const joined = text.replace(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu, (compound) => {
    const word = compound.replaceAll('-', '');
    return known.has(stemmer(word.toLowerCase())) ? word : compound;
  });
  // Stemmed once per distinct text: a long text repeats its words.
  const keys = new Map<string, string>();
  const keyOfOnce = (entry: string) => keys.get(entry) ?? keys.set(entry, keyOf(entry)).get(entry)!;
  const words = tokensOf(joined);
  const groups: string[][] = [];
  /** The keys of every entry in `groups`. */
  const seen = new Set<string>();
  for (let i = 0; i < words.length && groups.length < MAX_WORDS;) {
    const length =
      [MAX_PHRASE, 2].find((n) => i + n <= words.length && known.has(keyOfOnce(words.slice(i, i + n).join(' ')))) ?? 1;
    const typed = words.slice(i, i + length).join(' ');
    i += length;
    if (STOP_WORDS.has(typed)) continue;
    // Two typed words for one idea ("photo", "picture") are one group: the idea is counted once. A word kept apart
    // is an idea of its own, known by itself rather than its stem ("programs" is not "programming").
    const key = apart.has(typed) ? `=${typed}` : keyOfOnce(typed);
    if (seen.has(key)) continue;
    const others = (known.get(key) ?? []).filter((w) => w !== typed && searchable(w));
    const group = searchable(typed) || !others.length ? [typed, ...others] : others;
    seen.add(key);
    for (const entry of group) if (entry !== typed) seen.add(keyOfOnce(entry));
    groups.push(group);
  }
  return groups;
}
