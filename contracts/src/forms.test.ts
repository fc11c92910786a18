import { describe, expect, it } from 'vitest';
import { config as zodConfig } from 'zod';
import {
  CONTACT_MESSAGE_MAX_LENGTH,
  contactSchema,
  DESCRIPTION_MAX_LENGTH,
  earlyAccessSchema,
  EMAIL_MAX_LENGTH,
  MESSAGE_MAX_LENGTH,
  idempotencyKeySchema,
  NAME_MAX_LENGTH,
  newIdempotencyKey,
  submissionSchema,
  URL_MAX_LENGTH,
  validateForm,
} from './forms';

const valid = {
  name: 'Acme AI',
  email: 'owner@acme.io',
  website_url: 'https://acme.io',
  tool_type: 'mcp-server',
  description: 'Does things',
  message: 'Hi',
};

describe('submissionSchema', () => {
  it('accepts a complete submission, trimming the name and keeping the fields', () => {
    expect(validateForm(submissionSchema, { ...valid, name: '  Acme AI  ' })).toEqual({
      success: true,
      data: {
        name: 'Acme AI',
        email: 'owner@acme.io',
        website_url: 'https://acme.io',
        tool_type: 'mcp-server',
        description: 'Does things',
        message: 'Hi',
      },
    });
  });

  it('defaults the tool type to ai-tool and turns empty optional texts into null', () => {
    const r = validateForm(submissionSchema, {
      name: 'A',
      email: 'a@b.co',
      website_url: 'http://a.b',
      description: '  ',
      message: '',
    });
    expect(r).toEqual({
      success: true,
      data: {
        name: 'A',
        email: 'a@b.co',
        website_url: 'http://a.b',
        tool_type: 'ai-tool',
        description: null,
        message: null,
      },
    });
  });

  it.each([[[]], ['text'], [42]])('answers %j, which is not an object of fields, in its own words', (body) => {
    expect(validateForm(submissionSchema, body)).toEqual({
      success: false,
      fieldErrors: { form: 'Expected one JSON object of named fields' },
    });
  });

  it('drops unknown fields', () => {
    const r = validateForm(submissionSchema, { ...valid, status: 'approved', id: 99 });
    expect(r.success && Object.keys(r.data).sort()).toEqual([
      'description',
      'email',
      'message',
      'name',
      'tool_type',
      'website_url',
    ]);
  });

  it.each([
    ['name', '', 'Name is required'],
    ['name', '   ', 'Name is required'],
    ['name', undefined, 'Name is required'],
    ['email', '', 'Email is required'],
    ['email', undefined, 'Email is required'],
    ['email', 'not-an-email', 'Please enter a valid email address'],
    ['email', 'a@b', 'Please enter a valid email address'],
    ['email', 'a b@c.de', 'Please enter a valid email address'],
    ['website_url', '', 'Website URL is required'],
    ['website_url', undefined, 'Website URL is required'],
    ['website_url', 'acme.io', 'Please enter a valid URL (starting with http:// or https://)'],
    ['website_url', 'ftp://acme.io', 'Please enter a valid URL (starting with http:// or https://)'],
    ['website_url', 'javascript:alert(1)', 'Please enter a valid URL (starting with http:// or https://)'],
    ['message', 'x'.repeat(501), 'Message must be 500 characters or less'],
    ['tool_type', 'plugin', 'Please choose a tool type'],
  ])('rejects %s = %j with "%s"', (field, value, message) => {
    expect(validateForm(submissionSchema, { ...valid, [field]: value })).toEqual({
      success: false,
      fieldErrors: { [field]: message },
    });
  });

  it('allows a message of exactly 500 characters and a description of exactly its maximum', () => {
    const r = validateForm(submissionSchema, {
      ...valid,
      message: 'x'.repeat(500),
      description: 'y'.repeat(DESCRIPTION_MAX_LENGTH),
    });
    expect(r.success).toBe(true);
  });

  it('reports every invalid field at once, one message each', () => {
    expect(validateForm(submissionSchema, {})).toEqual({
      success: false,
      fieldErrors: { name: 'Name is required', email: 'Email is required', website_url: 'Website URL is required' },
    });
  });

  it('reports a body that is not an object under "form"', () => {
    const r = validateForm(submissionSchema, 'hello');
    expect(r.success).toBe(false);
    expect(!r.success && Object.keys(r.fieldErrors)).toEqual(['form']);
  });
});

describe('contactSchema', () => {
  const contact = { name: 'Ada', email: 'ada@example.com', subject: 'bug-report', message: 'It broke' };

  it('accepts each of the six subjects', () => {
    for (const subject of ['general', 'tool-suggestion', 'bug-report', 'partnership', 'privacy', 'other']) {
      expect(validateForm(contactSchema, { ...contact, subject }).success).toBe(true);
    }
  });

  it.each([
    ['name', '', 'Name is required'],
    ['email', '', 'Email is required'],
    ['email', 'ada@', 'Please enter a valid email address'],
    ['subject', '', 'Please choose a subject'],
    ['subject', 'sales', 'Please choose a subject'],
    ['subject', undefined, 'Please choose a subject'],
    ['message', ' ', 'Message is required'],
  ])('rejects %s = %j with "%s"', (field, value, message) => {
    expect(validateForm(contactSchema, { ...contact, [field]: value })).toEqual({
      success: false,
      fieldErrors: { [field]: message },
    });
  });

  it('limits the message to its maximum length', () => {
    expect(validateForm(contactSchema, { ...contact, message: 'z'.repeat(CONTACT_MESSAGE_MAX_LENGTH) }).success).toBe(
      true,
    );
    expect(validateForm(contactSchema, { ...contact, message: 'z'.repeat(CONTACT_MESSAGE_MAX_LENGTH + 1) })).toEqual({
      success: false,
      fieldErrors: { message: `Message must be ${CONTACT_MESSAGE_MAX_LENGTH} characters or less` },
    });
  });

  it('keeps line breaks in the message (CR LF stored as LF) but refuses other control characters', () => {
    expect(validateForm(contactSchema, { ...contact, message: 'one\r\ntwo\tthree\rfour' })).toMatchObject({
      success: true,
      data: { message: 'one\ntwo\tthree\nfour' },
    });
    expect(validateForm(contactSchema, { ...contact, message: 'bell\u0007' })).toEqual({
      success: false,
      fieldErrors: { message: 'Message contains a control character (U+0007), which is not allowed' },
    });
  });
});

describe('earlyAccessSchema', () => {
  it('requires a valid email', () => {
    expect(validateForm(earlyAccessSchema, { email: ' ad@vert.iser ' })).toEqual({
      success: true,
      data: { email: 'ad@vert.iser' },
    });
    expect(validateForm(earlyAccessSchema, {})).toEqual({
      success: false,
      fieldErrors: { email: 'Email is required' },
    });
    expect(validateForm(earlyAccessSchema, { email: 'nope' })).toEqual({
      success: false,
      fieldErrors: { email: 'Please enter a valid email address' },
    });
  });
});

describe('field lengths and characters', () => {
  const long = (n: number) => 'a'.repeat(n);

  it.each([
    ['name', long(NAME_MAX_LENGTH + 1), `Name must be ${NAME_MAX_LENGTH} characters or less`],
    // Counted in UTF-16 units, as the input's maxLength counts: 51 emoji are 102.
    ['name', '\u{1F600}'.repeat(51), `Name must be ${NAME_MAX_LENGTH} characters or less`],
    ['email', `${long(EMAIL_MAX_LENGTH)}@b.co`, `Email must be ${EMAIL_MAX_LENGTH} characters or less`],
    ['website_url', `https://${long(URL_MAX_LENGTH)}`, `Website URL must be ${URL_MAX_LENGTH} characters or less`],
    [
      'description',
      long(DESCRIPTION_MAX_LENGTH + 1),
      `Description must be ${DESCRIPTION_MAX_LENGTH} characters or less`,
    ],
    ['name', 'A\u0000B', 'Name contains a control character (U+0000), which is not allowed'],
    ['name', 'evil\u001b[2J', 'Name contains a control character (U+001B), which is not allowed'],
    ['name', 'legit\rfake', 'Name contains a line break (U+000D), which is not allowed'],
    ['name', 'line\nbreak', 'Name contains a line break (U+000A), which is not allowed'],
    [
      'name',
      'lone \uD83D surrogate',
      'Name contains an unpaired surrogate (not valid Unicode) (U+D83D), which is not allowed',
    ],
    [
      'name',
      'low \uDC00 surrogate',
      'Name contains an unpaired surrogate (not valid Unicode) (U+DC00), which is not allowed',
    ],
    ['name', 'abc\u202Egpj.exe', 'Name contains a text-direction control (U+202E), which is not allowed'],
    ['name', 'iso\u2066late\u2069', 'Name contains a text-direction control (U+2066), which is not allowed'],
    ['name', 'c1\u009B31m', 'Name contains a control character (U+009B), which is not allowed'],
    ['name', '\u200B\u200C\u200D\uFEFF', 'Name contains an invisible character (U+200B), which is not allowed'],
    ['name', 'zero\u200Bwidth', 'Name contains an invisible character (U+200B), which is not allowed'],
    ['name', 'tag\u{E0041}\u{E0042}text', 'Name contains an invisible character (U+E0041), which is not allowed'],
    ['name', 'soft\u00ADhyphen', 'Name contains an invisible character (U+00AD), which is not allowed'],
    ['name', 'rlm\u200Fmark', 'Name contains a text-direction control (U+200F), which is not allowed'],
    ['name', '\u3164\u2800', 'Name contains an invisible character (U+3164), which is not allowed'],
    ['name', '\u2800 ', 'Name is required'],
    ['name', '\u0301\u0302', 'Name is required'],
    ['email', 'a\u202E@b.co', 'Email contains a text-direction control (U+202E), which is not allowed'],
    ['website_url', 'https://a.b/\u0000', 'Website URL contains a control character (U+0000), which is not allowed'],
    ['website_url', 'javascript:alert(1)', 'Please enter a valid URL (starting with http:// or https://)'],
    [
      'website_url',
      'data:text/html,<script>alert(1)</script>',
      'Please enter a valid URL (starting with http:// or https://)',
    ],
    ['website_url', 'https://', 'Please enter a valid URL (starting with http:// or https://)'],
    [
      'message',
      'hi\u001b]8;;https://evil\u0007x',
      'Message contains a control character (U+001B), which is not allowed',
    ],
    ['name', 42, 'Name is required'],
    ['description', ['x'], 'Must be text'],
  ])('rejects %s = %j with "%s"', (field, value, message) => {
    expect(validateForm(submissionSchema, { ...valid, [field]: value })).toEqual({
      success: false,
      fieldErrors: { [field]: message },
    });
  });

  it('stores names in NFC and keeps visible non-Latin text, emoji and markup as text', () => {
    for (const [input, stored] of [
      ['Cafe\u0301', 'Caf\u00e9'],
      ['\u05e2\u05d1\u05e8\u05d9\u05ea AI', '\u05e2\u05d1\u05e8\u05d9\u05ea AI'],
      ['\u{1F468}\u200D\u{1F4BB} Dev', '\u{1F468}\u200D\u{1F4BB} Dev'],
      // Invisible characters text needs: a non-joiner between Persian letters, a subdivision flag's tags.
      ['\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645', '\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645'],
      [
        '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} Tool',
        '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} Tool',
      ],
      ['<img src=x onerror=alert(1)>', '<img src=x onerror=alert(1)>'],
    ]) {
      const r = validateForm(submissionSchema, { ...valid, name: input });
      expect(r).toMatchObject({ success: true, data: { name: stored } });
    }
  });

  it('accepts each field at exactly its maximum length', () => {
    const r = validateForm(submissionSchema, {
      ...valid,
      name: long(NAME_MAX_LENGTH),
      email: `${long(EMAIL_MAX_LENGTH - 5)}@b.co`,
      website_url: `https://${long(URL_MAX_LENGTH - 8)}`,
    });
    expect(r.success).toBe(true);
  });

  it('publishes the limits for the browser forms', () => {
    expect([
      NAME_MAX_LENGTH,
      EMAIL_MAX_LENGTH,
      URL_MAX_LENGTH,
      DESCRIPTION_MAX_LENGTH,
      MESSAGE_MAX_LENGTH,
      CONTACT_MESSAGE_MAX_LENGTH,
    ]).toEqual([100, 254, 2048, 2000, 500, 5000]);
  });
});

describe('idempotency keys', () => {
  it('makes fresh keys the schema accepts, and refuses odd ones', () => {
    const a = newIdempotencyKey();
    expect(a).not.toBe(newIdempotencyKey());
    expect(idempotencyKeySchema.safeParse(a).success).toBe(true);
    for (const bad of ['short', 'x'.repeat(129), 'has space here', '<script>', 12345678])
      expect(idempotencyKeySchema.safeParse(bad).success).toBe(false);
  });
});

describe('zod in the browser bundle', () => {
  it('runs jitless once the forms contract is loaded, so no new Function probe trips the CSP', () => {
    expect(zodConfig().jitless).toBe(true);
  });
});
