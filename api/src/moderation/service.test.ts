import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import { getSubmission, insertContactMessage, insertEarlyAccess, insertSubmission } from '../forms/repository';
import { getTool as getToolDoc, upsertTool } from '../tools/repository';
import { contactLines, submissionLines, subscriberLine } from './format';
import {
  approveSubmission,
  contactsCsv,
  csvField,
  ModerationError,
  rejectSubmission,
  slugify,
  subscribersCsv,
  toCsv,
} from './service';

let db: DB;
beforeEach(async () => {
  db = await openTestDatabase();
});
afterEach(() => db.destroy());

const submit = (over: Partial<Parameters<typeof insertSubmission>[1]> = {}) =>
  insertSubmission(db, {
    name: 'Acme AI',
    email: 'o@acme.io',
    website_url: 'https://acme.io',
    tool_type: 'ai-tool',
    description: 'Writes things',
    message: null,
    ...over,
  });

describe('slugify', () => {
  it('makes a lowercase, dash-separated slug', () => {
    expect(slugify('Acme AI: Pro!')).toBe('acme-ai-pro');
    expect(slugify('  Café  Ünïcode ')).toBe('cafe-unicode');
    expect(slugify('!!!')).toBe('tool');
  });
});

describe('approveSubmission', () => {
  it.each([
    [
      'a text-direction control in the category',
      { category: 'Evil\u202eCat' },
      /category: Category contains a text-direction control \(U\+202E\)/,
    ],
    [
      'an invisible character in the pricing',
      { pricing: 'x\u200by' },
      /pricing: Pricing contains an invisible character \(U\+200B\)/,
    ],
    ['a blank category', { category: '   ' }, /category: Category is required/],
    ['a category over 60 characters', { category: 'c'.repeat(61) }, /Category must be 60 characters or less/],
  ])('refuses %s, the CLI and the console alike, and publishes nothing', async (_name, choice, reason) => {
    const id = await submit();
    const err = await approveSubmission(db, id, choice).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModerationError);
    expect((err as Error).message).toMatch(reason);
    expect(await getToolDoc(db, 'acme-ai')).toBeNull();
    expect(await getSubmission(db, id)).toMatchObject({ status: 'pending' });
  });

  it('publishes the text as the rules read it: normalised and trimmed, whatever the row held (an import, an old row)', async () => {
    const id = await submit({ name: '  Cafe\u0301 Server  ', description: '  Brews things  ' });
    const { slug } = await approveSubmission(db, id);
    expect(slug).toBe('cafe-server');
    expect(await getToolDoc(db, slug)).toMatchObject({ name: 'Caf\u00e9 Server', description: 'Brews things' });
  });

  it('creates the tool from the submission and marks it approved with the slug', async () => {
    const id = await submit();
    const { slug } = await approveSubmission(db, id, { today: '2026-11-23' });
    expect(slug).toBe('acme-ai');
    expect(await getToolDoc(db, 'acme-ai')).toMatchObject({
      slug: 'acme-ai',
      name: 'Acme AI',
      description: 'Writes things',
      category: 'AI Assistants',
      pricing: 'Free',
      tags: ['ai-tool'],
      website: 'https://acme.io',
      lastUpdated: '2026-11-23',
    });
    expect(await getSubmission(db, id)).toMatchObject({
      status: 'approved',
      tool_slug: 'acme-ai',
      reviewed_at: expect.any(String),
    });
  });

  it('files MCP servers under MCP Servers with mcp tags, and honours --category and --pricing', async () => {
    const mcp = await submit({ name: 'Files MCP', tool_type: 'mcp-server' });
    await approveSubmission(db, mcp);
    expect(await getToolDoc(db, 'files-mcp')).toMatchObject({
      category: 'MCP Servers',
      tags: ['mcp', 'mcp-server'],
      mcpBadge: 'Community',
    });
    const other = await submit({ name: 'Pixel Pal' });
    await approveSubmission(db, other, { category: 'Image Generation', pricing: 'Freemium' });
    expect(await getToolDoc(db, 'pixel-pal')).toMatchObject({ category: 'Image Generation', pricing: 'Freemium' });
  });

  it('never overwrites an existing tool: the slug gets -2, -3', async () => {
    await upsertTool(db, { slug: 'acme-ai', name: 'The original', description: '', website: 'https://orig.example' });
    await approveSubmission(db, await submit());
    await approveSubmission(db, await submit());
    expect(await getToolDoc(db, 'acme-ai')).toMatchObject({ name: 'The original' });
    expect(await getToolDoc(db, 'acme-ai-2')).toMatchObject({ name: 'Acme AI' });
    expect(await getToolDoc(db, 'acme-ai-3')).toMatchObject({ name: 'Acme AI' });
  });

  it('never takes a slug a tool had (an old address that redirects to the renamed tool)', async () => {
    await upsertTool(db, { slug: 'acme-pro', name: 'Acme', description: '', website: 'https://orig.example' });
    await db.insertInto('tool_slug_aliases').values({ old_slug: 'acme-ai', slug: 'acme-pro' }).execute();
    await approveSubmission(db, await submit());
    expect(await getToolDoc(db, 'acme-ai')).toBeNull();
    expect(await getToolDoc(db, 'acme-ai-2')).toMatchObject({ name: 'Acme AI' });
  });

  it('refuses unknown ids and submissions that were already reviewed, changing nothing', async () => {
    await expect(approveSubmission(db, 42)).rejects.toThrow(new ModerationError('No submission with id 42.'));
    const id = await submit();
    await rejectSubmission(db, id);
    await expect(approveSubmission(db, id)).rejects.toThrow('Submission 1 is already rejected.');
    expect(await getToolDoc(db, 'acme-ai')).toBeNull();
  });
});

describe('rejectSubmission', () => {
  it('marks a pending submission rejected without creating a tool', async () => {
    const id = await submit();
    await rejectSubmission(db, id);
    expect(await getSubmission(db, id)).toMatchObject({ status: 'rejected', tool_slug: null });
    expect(await getToolDoc(db, 'acme-ai')).toBeNull();
    await expect(rejectSubmission(db, 7)).rejects.toThrow('No submission with id 7.');
    await expect(rejectSubmission(db, id)).rejects.toThrow('Submission 1 is already rejected.');
  });
});

describe('CSV export', () => {
  it('quotes commas, quotes and line breaks, and defuses spreadsheet formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line1\nline2')).toBe('"line1\nline2"');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField(null)).toBe('');
    expect(csvField(3)).toBe('3');
    expect(toCsv(['a', 'b'], [{ a: 1, b: 'x,y' }])).toBe('a,b\r\n1,"x,y"\r\n');
  });

  it.each([
    // The bypasses: a ; list separator, and a formula at the start of a later line.
    ['x;=1+1;@SUM(A1)', `"x;'=1+1;'@SUM(A1)"`],
    ['ok\n=1+1', `"ok\n'=1+1"`],
    ['ok\r\n+1', `"ok\\u{D}\n'+1"`],
    ['a,=cmd', `"a,'=cmd"`],
    ['a\t-2', `"a\t'-2"`],
    ['\t=1', `"'\t'=1"`],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['-5', "'-5"],
    ['2026-11-23', '2026-11-23'],
    ['a - b = c', 'a - b = c'],
    ['semi;colon', '"semi;colon"'],
    ['esc\u001b[2J', 'esc\\u{1B}[2J'],
    ['rtl\u202Etxt', 'rtl\\u{202E}txt'],
    // Look-alikes of the formula signs, which spreadsheets read as the sign itself.
    ['\uFF1DHYPERLINK("https://evil")', `"'\uFF1DHYPERLINK(""https://evil"")"`],
    ['\uFF0B1', "'\uFF0B1"],
    ['\uFF0D1', "'\uFF0D1"],
    ['\uFF20SUM(A1)', "'\uFF20SUM(A1)"],
    ['\uFE661+1', "'\uFE661+1"],
    ['\u22121', "'\u22121"],
    ['x;\uFF1D1', `"x;'\uFF1D1"`],
    ['ok\n\uFF1D1', `"ok\n'\uFF1D1"`],
  ])('csvField(%j) is %s', (input, expected) => {
    expect(csvField(input)).toBe(expected);
  });

  it('exports contact messages and subscribers with a header row', async () => {
    await insertContactMessage(db, { name: 'Ada, L.', email: 'ada@x.io', subject: 'other', message: 'Hello\n"there"' });
    const contacts = (await contactsCsv(db)).split('\r\n');
    expect(contacts[0]).toBe('id,created_at,name,email,subject,message');
    expect(contacts[1]).toMatch(/^1,\d{4}-[^,]+,"Ada, L\.",ada@x\.io,other,"Hello\n""there"""$/);
    await insertEarlyAccess(db, {
      email: 'ads@b.co',
      timestamp: '2026-11-23T10:00:00.000Z',
      type: 'early_access_advertising',
      source: 'advertise_page_modal',
    });
    expect(await subscribersCsv(db)).toBe(
      'id,timestamp,email,type,source\r\n1,2026-11-23T10:00:00.000Z,ads@b.co,early_access_advertising,advertise_page_modal\r\n',
    );
  });
});

describe('CLI output', () => {
  /** Anything a terminal acts on: C0 but line feed, DEL, C1, bidi controls. */
  const TERMINAL_CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
  const row = (over: Record<string, unknown>) =>
    ({
      id: 1,
      name: 'Acme',
      email: 'o@a.io',
      website_url: 'https://a.io',
      tool_type: 'ai-tool',
      description: null,
      message: null,
      status: 'pending',
      created_at: '2026-11-23T10:00:00.000Z',
      reviewed_at: null,
      tool_slug: null,
      ...over,
    }) as Parameters<typeof submissionLines>[0];

  it.each([
    ['clears the screen', 'evil\u001b[2J', 'evil\\u{1B}[2J'],
    ['overwrites the line', 'legit tool\r#1 [approved] fake', 'legit tool\\u{D}#1 [approved] fake'],
    [
      'links with OSC 8',
      '\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007',
      '\\u{1B}]8;;https://evil.example\\u{7}click\\u{1B}]8;;\\u{7}',
    ],
    ['uses a one-byte CSI', 'x\u009b31m', 'x\\u{9B}31m'],
    ['reorders text', 'abc\u202Etxt.exe', 'abc\\u{202E}txt.exe'],
  ])('prints a name that %s as visible escapes', (_what, name, shown) => {
    const [first] = submissionLines(row({ name }));
    expect(first).toContain(shown);
    expect(first).not.toMatch(TERMINAL_CONTROL);
  });

  it('keeps line breaks of messages, indented, and escapes the rest', () => {
    const lines = submissionLines(row({ description: 'one\ntwo\u001b[1m', message: 'hi\rthere' }));
    expect(lines.slice(1)).toEqual(['    description: one\n    two\\u{1B}[1m', '    message: hi\\u{D}there']);
    const contact = contactLines({
      id: 2,
      name: 'N\u001b[31m',
      email: 'e@x.io',
      subject: 'other',
      message: 'a\nb\u0007',
      created_at: 't',
    });
    expect(contact).toEqual(['#2 t [other] N\\u{1B}[31m <e@x.io>', '    a\n    b\\u{7}']);
    expect(
      subscriberLine({
        id: 1,
        email: 'x\u001b@y.io',
        timestamp: 't',
        type: 'early_access_advertising',
        source: 'advertise_page_modal',
      }),
    ).toBe('t x\\u{1B}@y.io');
  });
});
