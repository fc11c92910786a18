import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DB } from '../db/connection';
import type { Schema } from '../db/schema';
import { countRows, openTestDatabase } from '../../test/testDatabase';
import { runOnce } from './idempotency';
import { joinEarlyAccess, sendContactMessage, submitTool } from './service';

let db: DB;
beforeEach(async () => {
  db = await openTestDatabase();
});
afterEach(() => db.destroy());

const count = (table: keyof Schema) => countRows(db, table);
const tool = { name: 'Acme AI', email: 'o@acme.io', website_url: 'https://acme.io' };

describe('form writes in process', () => {
  it('submitTool stores a pending row and returns its id, or the field errors and nothing stored', async () => {
    const ok = await submitTool(db, tool);
    expect(ok).toEqual({ ok: true, id: 1, replayed: false });
    expect(await submitTool(db, { ...tool, name: ' ' })).toEqual({
      ok: false,
      fieldErrors: { name: 'Name is required' },
    });
    expect(await count('submissions')).toBe(1);
  });

  it('a retry with the same key returns the first id and stores nothing twice', async () => {
    const first = await submitTool(db, tool, { idempotencyKey: 'form-render-0001' });
    const retry = await submitTool(db, { ...tool, name: '  Acme AI ' }, { idempotencyKey: 'form-render-0001' });
    expect(retry).toEqual({ ok: true, id: first.ok && first.id, replayed: true });
    expect(await count('submissions')).toBe(1);
  });

  it('sendContactMessage and joinEarlyAccess follow the same rules', async () => {
    const msg = { name: 'Ada', email: 'ada@x.io', subject: 'general', message: 'Hi' };
    expect(await sendContactMessage(db, msg, { idempotencyKey: 'contact-key-1' })).toMatchObject({
      ok: true,
      replayed: false,
    });
    expect(await sendContactMessage(db, msg, { idempotencyKey: 'contact-key-1' })).toMatchObject({
      ok: true,
      replayed: true,
    });
    expect(await count('contact_messages')).toBe(1);
    expect(await joinEarlyAccess(db, { email: 'a@b.co' })).toMatchObject({ ok: true, created: true, email: 'a@b.co' });
    expect(await joinEarlyAccess(db, { email: 'A@b.co' })).toMatchObject({ ok: true, id: 1, created: false });
    expect(await joinEarlyAccess(db, { email: 'x' })).toEqual({
      ok: false,
      fieldErrors: { email: 'Please enter a valid email address' },
    });
  });

  it('rolls the key back with the write: a failed write leaves no key behind', async () => {
    await expect(
      runOnce(db, 'submissions', 'fails-midway-1', {}, async () => {
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(await count('idempotency_keys')).toBe(0);
  });

  it('keeps keys a day, then forgets them', async () => {
    const DAY = 24 * 60 * 60 * 1000;
    const t0 = new Date('2026-11-23T10:00:00Z');
    await runOnce(db, 'submissions', 'old-key-0001', {}, async () => ({ id: 1 }), t0);
    await runOnce(db, 'submissions', 'new-key-0001', {}, async () => ({ id: 2 }), new Date(t0.getTime() + DAY - 1));
    expect(await count('idempotency_keys')).toBe(2);
    await runOnce(db, 'submissions', 'newer-key-01', {}, async () => ({ id: 3 }), new Date(t0.getTime() + DAY + 1));
    expect((await db.selectFrom('idempotency_keys').select('key').orderBy('key').execute()).map((r) => r.key)).toEqual([
      'new-key-0001',
      'newer-key-01',
    ]);
  });
});
