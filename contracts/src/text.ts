/**
 * Character rules for text that people send (forms, registry imports, analytics events), shared by every write path
 * and by the operator outputs. Pure TypeScript: bundled into the browser with the forms.
 */

/** Bidi embeddings/overrides (U+202A-202E), isolates (U+2066-2069) and marks (LRM, RLM, ALM): they reorder text
 *  shown to others, or hide that they are there. */
const BIDI = '\\u202A-\\u202E\\u2066-\\u2069\\u200E\\u200F\\u061C';
/** C0 controls but tab and line breaks, DEL, C1 controls (0x9B is a one-byte CSI, 0x9D an OSC), line/paragraph
 *  separators. */
const CONTROLS_BUT_BREAKS = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u2028\\u2029';
/**
 * Invisible characters that text needs, so not refused: variation selectors (emoji presentation), Mongolian
 * variation selectors, the combining grapheme joiner, the prepended concatenation marks (visible signs that are
 * format characters), a joiner inside an emoji sequence, a non-joiner between letters (Persian, Indic scripts) and
 * the tag characters of a subdivision flag.
 */
const NEEDED_INVISIBLE = [
  '[\\uFE00-\\uFE0F\\u{E0100}-\\u{E01EF}\\u180B-\\u180D\\u180F\\u034F\\u0600-\\u0605\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u{110BD}\\u{110CD}]',
  '(?<=\\p{Extended_Pictographic}[\\u{1F3FB}-\\u{1F3FF}\\uFE0F]?)\\u200D(?=\\p{Extended_Pictographic})',
  '(?<=[\\p{L}\\p{M}])\\u200C(?=[\\p{L}\\p{M}])',
  '(?<=\\u{1F3F4}[\\u{E0020}-\\u{E007E}]*)[\\u{E0020}-\\u{E007E}](?=[\\u{E0020}-\\u{E007E}]*\\u{E007F})',
  '(?<=\\u{1F3F4}[\\u{E0020}-\\u{E007E}]+)\\u{E007F}',
].join('|');
/** Format and default-ignorable characters: zero-width spaces and joiners, word joiner, BOM, soft hyphen, Hangul
 *  fillers, Unicode tag characters (which can carry hidden text). */
const INVISIBLE = `(?!${NEEDED_INVISIBLE})[\\p{Cf}\\p{Default_Ignorable_Code_Point}]`;

export type ForbiddenKind = 'line-break' | 'control' | 'bidi' | 'surrogate' | 'invisible';

const KIND_WORDS: Record<ForbiddenKind, string> = {
  'line-break': 'a line break',
  control: 'a control character',
  bidi: 'a text-direction control',
  surrogate: 'an unpaired surrogate (not valid Unicode)',
  invisible: 'an invisible character',
};

function forbiddenPattern(multiline: boolean): RegExp {
  return new RegExp(
    [
      `(?<lineBreak>${multiline ? '(?!)' : '[\\n\\r]'})`,
      `(?<control>[${multiline ? '' : '\\t'}${CONTROLS_BUT_BREAKS}])`,
      `(?<bidi>[${BIDI}])`,
      // With the u flag, only a surrogate without its partner matches.
      '(?<surrogate>[\\uD800-\\uDFFF])',
      `(?<invisible>${INVISIBLE})`,
    ].join('|'),
    'u',
  );
}
const FORBIDDEN_SINGLE_LINE = forbiddenPattern(false);
const FORBIDDEN_MULTILINE = forbiddenPattern(true);

export interface ForbiddenCharacter {
  kind: ForbiddenKind;
  /** "U+202E" */
  codePoint: string;
}

/** The first character a field never accepts (multiline fields allow tab and line breaks), or null. */
export function findForbiddenCharacter(text: string, multiline = false): ForbiddenCharacter | null {
  const m = (multiline ? FORBIDDEN_MULTILINE : FORBIDDEN_SINGLE_LINE).exec(text);
  if (!m) return null;
  const g = m.groups ?? {};
  const kind: ForbiddenKind =
    g.lineBreak !== undefined
      ? 'line-break'
      : g.control !== undefined
        ? 'control'
        : g.bidi !== undefined
          ? 'bidi'
          : g.surrogate !== undefined
            ? 'surrogate'
            : 'invisible';
  return { kind, codePoint: `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` };
}

/** The reason a refusal gives: "contains a text-direction control (U+202E)". */
export function forbiddenReason(found: ForbiddenCharacter): string {
  return `contains ${KIND_WORDS[found.kind]} (${found.codePoint}), which is not allowed`;
}

/**
 * Something a reader can see: not white space, not a control or format character (zero-width space/joiners,
 * BOM), not a default-ignorable filler (U+3164 and friends), not a lone combining mark, not the blank braille cell.
 */
const VISIBLE = /[^\p{White_Space}\p{Cc}\p{Cf}\p{M}\p{Default_Ignorable_Code_Point}\u2800]/u;

export function hasVisibleCharacter(text: string): boolean {
  return VISIBLE.test(text);
}

/** CR LF and lone CR become LF: browsers post textarea line breaks as CR LF, and a lone CR rewrites a terminal line. */
export function normalizeLineBreaks(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Every character that can move a terminal's cursor, start an escape sequence, reorder text or hide (all but \n,
 *  tab and variation selectors): shown escaped even where a form would accept it, so an operator sees it. */
const UNSAFE_FOR_DISPLAY = new RegExp(
  `[\\r${CONTROLS_BUT_BREAKS}${BIDI}\\uD800-\\uDFFF]|(?![\\uFE00-\\uFE0F])[\\p{Cf}\\p{Default_Ignorable_Code_Point}]`,
  'gu',
);

/**
 * Text that is safe to print to an operator's terminal: each unsafe or invisible character is shown as an escape
 * (`\u{1B}`, `\u{200B}`, `\u{E0041}`), so an operator sees that it was there, and no sequence (ESC [2J, OSC 8
 * links, \r overwrites, bidi) takes effect. Line breaks and tabs stay when `multiline`, otherwise they are escaped too.
 */
export function escapeForDisplay(text: string, multiline = false): string {
  const escape = (ch: string) => `\\u{${ch.codePointAt(0)!.toString(16).toUpperCase()}}`;
  const escaped = text.replace(UNSAFE_FOR_DISPLAY, escape);
  return multiline ? escaped : escaped.replace(/[\n\t]/g, escape);
}
