import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgresUrl, openDatabase } from '../db/connection';
import { testDatabaseLocation } from '../../test/testDatabase';
import { insertContactMessage, insertEarlyAccess, insertSubmission } from '../forms/repository';

/** The real CLI in a child process, on a database holding hostile rows (as stored before the field rules existed). */
const dir = mkdtempSync(join(tmpdir(), 'moderate-'));
/** The CLI's database: an SQLite file, or a Postgres schema (TEST_DATABASE_URL), as DATABASE_PATH/DATABASE_URL says. */
let location: string;
const TERMINAL_CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

const moderate = (...args: string[]) =>
  execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'cli.ts'), ...args], {
    env: { ...process.env, ...(isPostgresUrl(location) ? { DATABASE_URL: location } : { DATABASE_PATH: location }) },
    encoding: 'utf8',
  });

beforeAll(async () => {
  location = await testDatabaseLocation(join(dir, 'site.sqlite'));
  const db = await openDatabase(location);
  await insertSubmission(db, {
    name: 'legit tool\r#1 [approved] fake\u001b[2J',
    email: 'a@b.co',
    website_url: 'https://a.b',
    tool_type: 'ai-tool',
    description: '\u001b]8;;https://evil\u0007x\u001b]8;;\u0007',
    message: 'abc\u202Eexe',
  });
  // Invisible characters that hide text from an operator: zero-width space and joiner, tag characters, BOM.
  await insertSubmission(db, {
    name: 'Hid\u200Bden\u200D \u{E0041}\u{E0042}tags\uFEFF',
    email: 'z@w.io',
    website_url: 'https://a.b',
    tool_type: 'ai-tool',
    description: 'soft\u00ADhyphen',
    message: null,
  });
  await insertContactMessage(db, {
    name: 'N\u009b2J',
    email: 'c@d.io',
    subject: 'other',
    message: 'x;=1+1;@SUM(A1)\nok\n=1+1',
  });
  await insertEarlyAccess(db, {
    email: '=cmd|x@y.io\u001b[0m',
    timestamp: '2026-11-23T10:00:00.000Z',
    type: 'early_access_advertising',
    source: 'advertise_page_modal',
  });
  await db.destroy();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('pnpm moderate prints visitor text inert', () => {
  it.each(['list', 'contacts', 'subscribers', 'contacts --csv', 'subscribers --csv'])('moderate %s', (command) => {
    const out = moderate(...command.split(' '));
    expect(out.length).toBeGreaterThan(20);
    // CSV rows end in CR LF (RFC 4180); no other control character reaches the terminal.
    expect(out.replace(/\r\n/g, '\n')).not.toMatch(TERMINAL_CONTROL);
  });

  it('moderate list shows invisible characters as visible escapes', () => {
    const out = moderate('list');
    expect(out).toContain('Hid\\u{200B}den\\u{200D} \\u{E0041}\\u{E0042}tags\\u{FEFF} <z@w.io>');
    expect(out).toContain('description: soft\\u{AD}hyphen');
    expect(out).not.toMatch(/[\u200B-\u200F\u00AD\uFEFF]|\u{E0041}/u);
  });

  it('CSV never starts a cell or a line of a cell with a formula', () => {
    const csv = moderate('contacts', '--csv');
    expect(csv).toContain(`"x;'=1+1;'@SUM(A1)\nok\n'=1+1"`);
    expect(moderate('subscribers', '--csv')).toContain("'=cmd|x@y.io\\u{1B}[0m");
  });
});
