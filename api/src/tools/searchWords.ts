/**
 * What a typed search means to the directory's ranking (docs/product.md, Directory search): its words, without
 * stop words, each with the other words the vocabulary (data/search-vocabulary.json) gives for the same idea. Words
 * are letters and digits only, so nothing typed reaches a search engine as syntax: quotes, `*`, `NEAR`, `AND`,
 * `OR`, `NOT` and control characters are separators or plain words.
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
}

/** Stem → the words of every vocabulary group with a member of that stem. */
function loadVocabulary(file = join(DATA_DIR, 'search-vocabulary.json')): Map<string, string[]> {
  const { groups } = JSON.parse(readFileSync(file, 'utf8')) as Vocabulary;
  const byStem = new Map<string, Set<string>>();
  for (const group of groups)
    for (const word of group) {
      const set = byStem.get(stemmer(word)) ?? new Set();
      for (const other of group) set.add(other);
      byStem.set(stemmer(word), set);
    }
  return new Map([...byStem].map(([stem, words]) => [stem, [...words]]));
}

let vocabulary: Map<string, string[]> | undefined;

/** The words a search is made of, lower-cased, in the order typed, without stop words or repeats. */
export function wordsOf(text: string): string[] {
  const words =
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const kept = words.filter((w) => !STOP_WORDS.has(w)).map((w) => w.slice(0, MAX_WORD_LENGTH));
  return [...new Set(kept)].slice(0, MAX_WORDS);
}

/** One group per typed word: the word first, then the vocabulary's other words for it. */
export function searchWords(text: string): string[][] {
  vocabulary ??= loadVocabulary();
  // A hyphenated word the vocabulary knows joined ("to-dos" → todos, "e-mail" → email) is that word, not its parts.
  const joined = text.replace(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu, (compound) => {
    const word = compound.replaceAll('-', '');
    return vocabulary!.has(stemmer(word.toLowerCase())) ? word : compound;
  });
  const groups: string[][] = [];
  for (const word of wordsOf(joined)) {
    // Two typed words for one idea ("ask", "questions") are one group: the idea is counted once.
    const same = groups.find((g) => g.some((w) => stemmer(w) === stemmer(word)));
    if (same) continue;
    const others = (vocabulary!.get(stemmer(word)) ?? []).filter((w) => w !== word && !STOP_WORDS.has(w));
    groups.push([word, ...others]);
  }
  return groups;
}
