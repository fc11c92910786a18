import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/testDatabase';
import {
  BEFORE_EDITS,
  diffLines,
  diffRevisions,
  getRevision,
  latestVersion,
  listRevisions,
  revisionText,
  saveRevision,
  StaleVersionError,
} from './revisions';

const noop = async () => {};

describe('content revisions', () => {
  it('keeps the record as it was before its first save, then one version a save', async () => {
    const db = await openTestDatabase();
    const v = await saveRevision(
      db,
      { kind: 'post', key: 'a', base: 0, body: { title: 'B' }, author: 'ed', previous: { title: 'A' } },
      noop,
    );
    expect(v).toBe(2);
    expect(await saveRevision(db, { kind: 'post', key: 'a', base: 2, body: { title: 'C' }, author: 'ed' }, noop)).toBe(
      3,
    );
    expect((await listRevisions(db, 'post', 'a')).map((r) => [r.version, r.author])).toEqual([
      [3, 'ed'],
      [2, 'ed'],
      [1, BEFORE_EDITS],
    ]);
    expect((await getRevision(db, 'post', 'a', 1))?.body).toEqual({ title: 'A' });
    // The kinds and keys are separate histories.
    expect(await latestVersion(db, 'tool', 'a')).toBe(0);
    expect(await latestVersion(db, 'post', 'b')).toBe(0);
  });

  it('refuses a save from an older version with 409 and the newer one, and rolls back what it applied', async () => {
    const db = await openTestDatabase();
    await saveRevision(db, { kind: 'tool', key: 't', base: 0, body: { n: 1 }, author: 'one' }, noop);
    let applied = 0;
    const err = await saveRevision(
      db,
      { kind: 'tool', key: 't', base: 0, body: { n: 2 }, author: 'two' },
      async () => void applied++,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StaleVersionError);
    expect((err as StaleVersionError).status).toBe(409);
    expect((err as StaleVersionError).latest).toMatchObject({ version: 1, author: 'one', body: { n: 1 } });
    expect(applied).toBe(0);
    expect(await latestVersion(db, 'tool', 't')).toBe(1);
  });

  it('two saves of one version at once: exactly one is refused with 409', async () => {
    const db = await openTestDatabase();
    await saveRevision(db, { kind: 'post', key: 'p', base: 0, body: { n: 0 }, author: 'x' }, noop);
    const results = await Promise.allSettled(
      [1, 2].map((n) => saveRevision(db, { kind: 'post', key: 'p', base: 1, body: { n }, author: `e${n}` }, noop)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(StaleVersionError);
    expect(await latestVersion(db, 'post', 'p')).toBe(2);
  });

  it('a refused insert of the unique key is a 409 too (the race the version check alone cannot see)', async () => {
    const db = await openTestDatabase();
    // Another writer's row lands between this save's check and its insert: the database's key refuses it.
    const err = await saveRevision(db, { kind: 'post', key: 'r', base: 0, body: { n: 1 }, author: 'me' }, (trx) =>
      trx
        .insertInto('content_revisions')
        .values({ kind: 'post', key: 'r', version: 1, body: '{}', author: 'other', created_at: 'x' })
        .execute()
        .then(noop),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StaleVersionError);
    expect(await latestVersion(db, 'post', 'r')).toBe(0);
  });

  it('diffs two versions', async () => {
    const db = await openTestDatabase();
    const one = { title: 'T', content: 'line 1\nline 2\nline 3' };
    const two = { title: 'T', content: 'line 1\nline two\nline 3' };
    await saveRevision(db, { kind: 'post', key: 'd', base: 0, body: one, author: 'a' }, noop);
    await saveRevision(db, { kind: 'post', key: 'd', base: 1, body: two, author: 'a' }, noop);
    expect(await diffRevisions(db, 'post', 'd', 1, 2)).toEqual({
      whole: false,
      lines: [
        { op: ' ', text: 'content:' },
        { op: ' ', text: 'line 1' },
        { op: '-', text: 'line 2' },
        { op: '+', text: 'line two' },
        { op: ' ', text: 'line 3' },
        { op: ' ', text: 'title: "T"' },
      ],
    });
    expect(await diffRevisions(db, 'post', 'd', 1, 9)).toBeNull();
  });

  it('lines: fields in name order, multi-line text under its name; diff of equal lists keeps all', () => {
    expect(revisionText({ b: 1, a: 'x\ny', c: undefined })).toEqual(['a:', 'x', 'y', 'b: 1']);
    expect(diffLines(['a', 'b'], ['a', 'b']).lines).toEqual([
      { op: ' ', text: 'a' },
      { op: ' ', text: 'b' },
    ]);
    expect(diffLines([], ['a']).lines).toEqual([{ op: '+', text: 'a' }]);
    expect(diffLines(['a'], []).lines).toEqual([{ op: '-', text: 'a' }]);
  });

  it('two long texts that differ everywhere: the changed middle as removed then added, saying so', () => {
    // 100,000 lines each (a post at its size limit): pairing them up line by line would take minutes or run out of memory.
    const a = ['head', ...Array<string>(100_000).fill('a'), 'tail'];
    const b = ['head', ...Array<string>(100_000).fill('b'), 'tail'];
    const { lines, whole } = diffLines(a, b);
    expect(whole).toBe(true);
    expect(lines).toHaveLength(200_002);
    expect(lines[0]).toEqual({ op: ' ', text: 'head' });
    expect(lines.slice(1, 100_001).every((l) => l.op === '-' && l.text === 'a')).toBe(true);
    expect(lines.slice(100_001, 200_001).every((l) => l.op === '+' && l.text === 'b')).toBe(true);
    expect(lines.at(-1)).toEqual({ op: ' ', text: 'tail' });
    // A few changes in a long text are still paired up line by line.
    const few = diffLines(
      a,
      a.map((l, i) => (i > 0 && i % 20_000 === 0 ? 'c' : l)),
    );
    expect(few.whole).toBe(false);
    expect(few.lines.filter((l) => l.op !== ' ')).toHaveLength(10);
  });
});
