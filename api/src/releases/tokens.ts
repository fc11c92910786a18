/**
 * Release tokens: a team's CI (or an operator) calls the release API with one, scoped to some remotes or, for an
 * operator, to all ('*'). The token is shown once when created; the database keeps only its sha256, and each
 * request looks the hash up in the database, so a revocation holds at once on every instance (nothing is cached).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DB } from '../db/connection';
import { REMOTE_NAMES } from '../paths';

/** The prefix makes a leaked token recognisable (secret scanners, logs). */
const TOKEN_PREFIX = 'aitr_';
export const ALL_REMOTES = '*';
const LABEL = /^[\w.@:-]{1,64}$/;

export class TokenError extends Error {}

export interface ReleaseToken {
  label: string;
  /** The remotes it may change, or ['*'] for every remote. */
  remotes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A new random token (32 bytes), printable once. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** The remotes a token covers, from the command line: "blog", "blog,directory" or "*". */
export function parseRemotes(list: string): string[] {
  const remotes = [
    ...new Set(
      list
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (remotes.includes(ALL_REMOTES)) {
    if (remotes.length > 1) throw new TokenError(`"*" covers every remote: give it alone.`);
    return [ALL_REMOTES];
  }
  if (!remotes.length)
    throw new TokenError(
      `Name the remotes the token may release (${REMOTE_NAMES.join(', ')}), or "*" for every remote.`,
    );
  const unknown = remotes.filter((r) => !(REMOTE_NAMES as readonly string[]).includes(r));
  if (unknown.length)
    throw new TokenError(
      `Unknown remote${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. Known remotes: ${REMOTE_NAMES.join(', ')}.`,
    );
  return remotes;
}

type Row = {
  label: string;
  remotes: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};
const fromRow = (r: Row): ReleaseToken => ({
  label: r.label,
  remotes: r.remotes.split(','),
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

/** Stores a new token's hash under `label` and returns the token (the only time it exists in clear). */
export async function createToken(db: DB, opts: { label: string; remotes: string[]; now?: Date }): Promise<string> {
  if (!LABEL.test(opts.label)) throw new TokenError('A label is 1-64 letters, digits or . _ @ : - (e.g. blog-ci).');
  const taken = await db.selectFrom('release_tokens').select('id').where('label', '=', opts.label).executeTakeFirst();
  if (taken)
    throw new TokenError(
      `A token labelled "${opts.label}" exists already (revoked ones keep their label): choose another label.`,
    );
  const token = generateToken();
  await db
    .insertInto('release_tokens')
    .values({
      label: opts.label,
      remotes: opts.remotes.join(','),
      token_hash: hashToken(token),
      created_at: (opts.now ?? new Date()).toISOString(),
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
  return token;
}

export async function listTokens(db: DB): Promise<ReleaseToken[]> {
  const rows = await db
    .selectFrom('release_tokens')
    .select(['label', 'remotes', 'created_at', 'last_used_at', 'revoked_at'])
    .orderBy('id')
    .execute();
  return rows.map(fromRow);
}

/** Ends a token at once; false when no live token has that label. */
export async function revokeToken(db: DB, label: string, now = new Date()): Promise<boolean> {
  const r = await db
    .updateTable('release_tokens')
    .set({ revoked_at: now.toISOString() })
    .where('label', '=', label)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * The live token a presented secret belongs to, or null. Found by its hash (the secret itself is never compared
 * byte by byte against stored data), checked again in constant time, and its last use recorded.
 */
export async function authenticateToken(db: DB, presented: string, now = new Date()): Promise<ReleaseToken | null> {
  if (!presented.startsWith(TOKEN_PREFIX) || presented.length > 200) return null;
  const hash = hashToken(presented);
  const row = await db
    .selectFrom('release_tokens')
    .select(['label', 'remotes', 'created_at', 'last_used_at', 'revoked_at', 'token_hash'])
    .where('token_hash', '=', hash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row || !timingSafeEqual(Buffer.from(row.token_hash, 'hex'), Buffer.from(hash, 'hex'))) return null;
  const usedAt = now.toISOString();
  await db.updateTable('release_tokens').set({ last_used_at: usedAt }).where('token_hash', '=', hash).execute();
  return { ...fromRow(row), lastUsedAt: usedAt };
}

export const tokenCovers = (token: Pick<ReleaseToken, 'remotes'>, remote: string): boolean =>
  token.remotes.includes(ALL_REMOTES) || token.remotes.includes(remote);
