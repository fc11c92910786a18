import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import {
  authenticateToken,
  createToken,
  hashToken,
  listTokens,
  parseRemotes,
  revokeToken,
  tokenCovers,
  TokenError,
} from './tokens';

let db: DB;
beforeEach(async () => {
  db = await openTestDatabase();
});
afterEach(async () => {
  await db.destroy();
});

describe('release tokens', () => {
  it('stores only the sha256 of a random token, and finds the token by it', async () => {
    const token = await createToken(db, { label: 'blog-ci', remotes: ['blog'] });
    const other = await createToken(db, { label: 'directory-ci', remotes: ['directory'] });
    expect(token).toMatch(/^aitr_[\w-]{43}$/);
    expect(token).not.toBe(other);
    const rows = await db.selectFrom('release_tokens').selectAll().execute();
    expect(rows.map((r) => r.token_hash)).toEqual([hashToken(token), hashToken(other)]);
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    // The token itself is in no column.
    expect(JSON.stringify(rows)).not.toContain(token.slice(5));
    const found = await authenticateToken(db, token);
    expect(found).toMatchObject({ label: 'blog-ci', remotes: ['blog'], revokedAt: null });
    expect(found?.lastUsedAt).not.toBeNull();
    expect((await listTokens(db)).find((t) => t.label === 'blog-ci')?.lastUsedAt).toBe(found?.lastUsedAt);
  });

  it('refuses an unknown, altered or malformed token', async () => {
    const token = await createToken(db, { label: 'blog-ci', remotes: ['blog'] });
    expect(await authenticateToken(db, token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'))).toBeNull();
    expect(await authenticateToken(db, 'aitr_' + 'x'.repeat(43))).toBeNull();
    expect(await authenticateToken(db, hashToken(token))).toBeNull();
    expect(await authenticateToken(db, '')).toBeNull();
  });

  it('a revoked token is refused on the next request (no cache), and its label stays taken', async () => {
    const token = await createToken(db, { label: 'blog-ci', remotes: ['blog'] });
    expect(await authenticateToken(db, token)).not.toBeNull();
    expect(await revokeToken(db, 'blog-ci')).toBe(true);
    expect(await authenticateToken(db, token)).toBeNull();
    expect(await revokeToken(db, 'blog-ci')).toBe(false);
    expect((await listTokens(db))[0]?.revokedAt).not.toBeNull();
    await expect(createToken(db, { label: 'blog-ci', remotes: ['blog'] })).rejects.toThrow(TokenError);
  });

  it('scopes a token to its remotes; an operator token covers every remote', async () => {
    expect(tokenCovers({ remotes: ['blog'] }, 'blog')).toBe(true);
    expect(tokenCovers({ remotes: ['blog'] }, 'directory')).toBe(false);
    expect(tokenCovers({ remotes: ['*'] }, 'directory')).toBe(true);
    expect(parseRemotes('blog, directory')).toEqual(['blog', 'directory']);
    expect(parseRemotes('*')).toEqual(['*']);
    expect(() => parseRemotes('blog,nope')).toThrow(/Unknown remote nope/);
    expect(() => parseRemotes('*,blog')).toThrow(TokenError);
    expect(() => parseRemotes('')).toThrow(TokenError);
  });

  it('refuses a label that could not be named on the command line', async () => {
    await expect(createToken(db, { label: 'has space', remotes: ['blog'] })).rejects.toThrow(TokenError);
  });
});
