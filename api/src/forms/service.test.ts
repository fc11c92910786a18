import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DB } from '../db/connection';
import { runOnce } from './idempotency';
import { joinEarlyAccess, sendContactMessage, submitTool } from './service';

let db: DB;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
const tool = { name: 'Acme AI', email: 'o@acme.io', website_url: 'https://acme.io' };

describe('form writes in process', () => {
  it('submitTool stores a pending row and returns its id, or the field errors and nothing stored', () => {
    const ok = submitTool(db, tool);
    expect(ok).toEqual({ ok: true, id: 1, replayed: false });
    expect(submitTool(db, { ...tool, name: '\u200B' })).toEqual({ ok: false, fieldErrors: { name: 'Name is required' } });
    expect(count('submissions')).toBe(1);
  });

  it('a retry with the same key returns the first id and stores nothing twice', () => {
    const first = submitTool(db, tool, { idempotencyKey: 'form-render-0001' });
    const retry = submitTool(db, { ...tool, name: '  Acme AI ' }, { idempotencyKey: 'form-render-0001' });
    expect(retry).toEqual({ ok: true, id: first.ok && first.id, replayed: true });
    expect(count('submissions')).toBe(1);
  });

  it('sendContactMessage and joinEarlyAccess follow the same rules', () => {
    const msg = { name: 'Ada', email: 'ada@x.io', subject: 'general', message: 'Hi' };
    expect(sendContactMessage(db, msg, { idempotencyKey: 'contact-key-1' })).toMatchObject({ ok: true, replayed: false });
    expect(sendContactMessage(db, msg, { idempotencyKey: 'contact-key-1' })).toMatchObject({ ok: true, replayed: true });
    expect(count('contact_messages')).toBe(1);
    expect(joinEarlyAccess(db, { email: 'a@b.co' })).toMatchObject({ ok: true, created: true, email: 'a@b.co' });
    expect(joinEarlyAccess(db, { email: 'A@b.co' })).toMatchObject({ ok: true, id: 1, created: false });
    expect(joinEarlyAccess(db, { email: 'x' })).toEqual({ ok: false, fieldErrors: { email: 'Please enter a valid email address' } });
  });

  it('rolls the key back with the write: a failed write leaves no key behind', () => {
    expect(() =>
      runOnce(db, 'submissions', 'fails-midway-1', {}, () => {
        throw new Error('disk full');
      }),
    ).toThrow('disk full');
    expect(count('idempotency_keys')).toBe(0);
  });

  it('keeps keys a day, then forgets them', () => {
    const DAY = 24 * 60 * 60 * 1000;
    const t0 = new Date('2026-11-23T10:00:00Z');
    runOnce(db, 'submissions', 'old-key-0001', {}, () => ({ id: 1 }), t0);
    runOnce(db, 'submissions', 'new-key-0001', {}, () => ({ id: 2 }), new Date(t0.getTime() + DAY - 1));
    expect(count('idempotency_keys')).toBe(2);
    runOnce(db, 'submissions', 'newer-key-01', {}, () => ({ id: 3 }), new Date(t0.getTime() + DAY + 1));
    expect((db.prepare('SELECT key FROM idempotency_keys ORDER BY key').all() as { key: string }[]).map((r) => r.key)).toEqual(['new-key-0001', 'newer-key-01']);
  });
});
