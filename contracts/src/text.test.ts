import { describe, expect, it } from 'vitest';
import { escapeForDisplay, findForbiddenCharacter, forbiddenReason } from './text';
import { isWebUrl } from './fields';

describe('the character rules', () => {
  it.each([
    ['esc\u001b[2J', 'control', 'U+001B'],
    ['bell\u0007', 'control', 'U+0007'],
    ['c1\u009b', 'control', 'U+009B'],
    ['para\u2029sep', 'control', 'U+2029'],
    ['two\nlines', 'line-break', 'U+000A'],
    ['abc\u202Eexe', 'bidi', 'U+202E'],
    ['iso\u2067late', 'bidi', 'U+2067'],
    ['mark\u200E', 'bidi', 'U+200E'],
    ['lone\uD800', 'surrogate', 'U+D800'],
    ['zero\u200Bwidth', 'invisible', 'U+200B'],
    ['word\u2060joiner', 'invisible', 'U+2060'],
    ['\uFEFFbom', 'invisible', 'U+FEFF'],
    ['soft\u00ADhyphen', 'invisible', 'U+00AD'],
    ['a\u200Db', 'invisible', 'U+200D'],
    ['tag\u{E0069}\u{E0067}', 'invisible', 'U+E0069'],
    ['filler\u3164', 'invisible', 'U+3164'],
  ])('%j: %s (%s)', (text, kind, codePoint) => {
    expect(findForbiddenCharacter(text)).toEqual({ kind, codePoint });
  });

  it('keeps what text needs: emoji sequences, variation selectors, flags, a non-joiner between letters, line breaks where allowed', () => {
    for (const text of [
      '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}',
      '\u2764\uFE0F',
      '\u{1F44D}\u{1F3FD}',
      '\u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}',
      '\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645',
      'Caf\u00e9 \u65E5\u672C',
    ])
      expect(findForbiddenCharacter(text), text).toBeNull();
    expect(findForbiddenCharacter('one\ntwo\tthree', true)).toBeNull();
    expect(findForbiddenCharacter('one\u0000', true)?.kind).toBe('control');
  });

  it('words the reason for a refusal', () => {
    expect(forbiddenReason({ kind: 'invisible', codePoint: 'U+200B' })).toBe(
      'contains an invisible character (U+200B), which is not allowed',
    );
  });
});

describe('escapeForDisplay (operator outputs)', () => {
  it('shows control, bidi and invisible characters as escapes, astral ones whole', () => {
    expect(escapeForDisplay('a\u200Bb\u202Ec\u001bd\u{E0041}e\uFEFF\u00AD')).toBe(
      'a\\u{200B}b\\u{202E}c\\u{1B}d\\u{E0041}e\\u{FEFF}\\u{AD}',
    );
    expect(escapeForDisplay('line\nbreak\ttab')).toBe('line\\u{A}break\\u{9}tab');
    expect(escapeForDisplay('line\nbreak\ttab', true)).toBe('line\nbreak\ttab');
    expect(escapeForDisplay('\u2764\uFE0F Caf\u00e9')).toBe('\u2764\uFE0F Caf\u00e9');
  });
});

describe('isWebUrl', () => {
  it.each([
    ['https://example.com/a?b#c', true],
    ['http://example.com', true],
    ['HTTPS://EXAMPLE.COM', true],
    ['javascript:alert(1)', false],
    ['data:text/html,<script>alert(1)</script>', false],
    ['file:///etc/passwd', false],
    ['ftp://example.com', false],
    ['https://', false],
    ['https:// spaced.example', false],
    ['//example.com', false],
  ])('%s: %s', (url, ok) => {
    expect(isWebUrl(url)).toBe(ok);
  });
});
