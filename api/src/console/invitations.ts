/**
 * One-time links to register a passkey: for a new person (an admin's or the CLI's invitation) or an existing one
 * (recovery). The token is shown once, in the link; the database keeps its sha256. A link works once and expires
 * (24 hours at most); a new link for a person ends the earlier unused ones.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DB } from '../db/connection';
import { INVITE_PATH } from '@aitools/contracts/console';
import { ConsoleError, getPerson, type Person } from './people';

export const INVITATION_MAX_HOURS = 24;

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export interface Invitation {
  link: string;
  expiresAt: string;
}

export async function createInvitation(
  db: DB,
  opts: { personId: number; origin: string; by: string; hours?: number; now?: number },
): Promise<Invitation> {
  const now = opts.now ?? Date.now();
  const hours = Math.min(opts.hours ?? INVITATION_MAX_HOURS, INVITATION_MAX_HOURS);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = now + hours * 3_600_000;
  await db
    .deleteFrom('console_invitations')
    .where('person_id', '=', opts.personId)
    .where('used_at', 'is', null)
    .execute();
  await db
    .insertInto('console_invitations')
    .values({
      person_id: opts.personId,
      token_hash: hashOf(token),
      created_at: new Date(now).toISOString(),
      expires_at: expiresAt,
      used_at: null,
      created_by: opts.by,
    })
    .execute();
  return { link: `${opts.origin}${INVITE_PATH}${token}`, expiresAt: new Date(expiresAt).toISOString() };
}

export interface OpenInvitation {
  id: number;
  person: Person;
}

/** The invitation a token names while it can still be used: 404 unknown, 410 used or expired or person disabled. */
export async function openInvitation(db: DB, token: unknown, now = Date.now()): Promise<OpenInvitation> {
  if (typeof token !== 'string' || !/^[\w-]{20,100}$/.test(token))
    throw new ConsoleError(404, 'This invitation link is not known. Ask an admin for a new one.');
  const row = await db
    .selectFrom('console_invitations')
    .select(['id', 'person_id', 'expires_at', 'used_at'])
    .where('token_hash', '=', hashOf(token))
    .executeTakeFirst();
  if (!row) throw new ConsoleError(404, 'This invitation link is not known. Ask an admin for a new one.');
  if (row.used_at) throw new ConsoleError(410, 'This invitation link was used already. Ask an admin for a new one.');
  if (Number(row.expires_at) <= now)
    throw new ConsoleError(410, 'This invitation link has expired. Ask an admin for a new one.');
  const person = await getPerson(db, Number(row.person_id));
  if (!person || person.disabled)
    throw new ConsoleError(410, 'This invitation is for a person who is disabled. Ask an admin.');
  return { id: Number(row.id), person };
}

/** Marks the invitation used; false when another request used it first (or it expired meanwhile). */
export async function useInvitation(db: DB, id: number, now = Date.now()): Promise<boolean> {
  const r = await db
    .updateTable('console_invitations')
    .set({ used_at: new Date(now).toISOString() })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
