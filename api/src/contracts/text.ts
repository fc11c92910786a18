/**
 * Character rules for visitor text, shared by the form schemas, the events endpoint and the operator outputs.
 * Pure TypeScript: bundled into the browser with the forms.
 */

/** Bidi embeddings/overrides (U+202A-202E) and isolates (U+2066-2069): they reorder text shown to others. */
const BIDI_CONTROLS = '\\u202A-\\u202E\\u2066-\\u2069';
/** C0 controls but tab and line breaks, DEL, C1 controls (0x9B is a one-byte CSI, 0x9D an OSC). */
const CONTROLS_BUT_BREAKS = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F';
/** A UTF-16 surrogate without its partner: not a character, and invalid in UTF-8 storage. */
const LONE_SURROGATE = '[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';

const FORBIDDEN_SINGLE_LINE = new RegExp(`[\\t\\n\\r${CONTROLS_BUT_BREAKS}${BIDI_CONTROLS}\\u2028\\u2029]|${LONE_SURROGATE}`);
const FORBIDDEN_MULTILINE = new RegExp(`[${CONTROLS_BUT_BREAKS}${BIDI_CONTROLS}\\u2028\\u2029]|${LONE_SURROGATE}`);

/** True when the text holds a character a form field never accepts (multiline fields allow tab and line breaks). */
export function hasForbiddenCharacters(text: string, multiline = false): boolean {
  return (multiline ? FORBIDDEN_MULTILINE : FORBIDDEN_SINGLE_LINE).test(text);
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

/** Every character that can move a terminal's cursor, start an escape sequence or reorder text (all but \n and tab). */
const UNSAFE_FOR_DISPLAY = new RegExp(`[\\r${CONTROLS_BUT_BREAKS}${BIDI_CONTROLS}\\u200E\\u200F\\u061C\\u2028\\u2029]|${LONE_SURROGATE}`, 'g');

/**
 * Text that is safe to print to an operator's terminal: each unsafe character is shown as an escape (`\u{1B}`),
 * so an operator sees that it was there, and no sequence (ESC [2J, OSC 8 links, \r overwrites, bidi) takes effect.
 * Line breaks and tabs stay when `multiline`, otherwise they are escaped too.
 */
export function escapeForDisplay(text: string, multiline = false): string {
  const escape = (ch: string) => `\\u{${ch.charCodeAt(0).toString(16).toUpperCase()}}`;
  const escaped = text.replace(UNSAFE_FOR_DISPLAY, escape);
  return multiline ? escaped : escaped.replace(/[\n\t]/g, escape);
}
