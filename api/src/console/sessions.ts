/**
 * Console sessions: an opaque random id in a __Host- cookie, and only its sha256 in the database, so every instance
 * agrees and a sign-out, a "sign out everywhere" or a disabled person takes effect at once. A session ends after
 * `idleMs` without a request, and `absoluteMs` after sign-in whatever happens (docs/operations.md, The console).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DB } from '../db/connection';
import { requestCookies } from '../http/cookies';
import type { IncomingMessage } from 'node:http';
import { getPerson, type Person } from './people';

export const SESSION_COOKIE = '__Host-console';

export interface SessionTimes {
  idleMs: number;
  absoluteMs: number;
}

/**
 * Writing last_seen_at on every request is not needed: it is written once a tenth of the idle limit has passed
 * since the last write (a minute at most), so a session in use is never ended by the clock's rounding, however
 * short the limit.
 */
const touchEvery = (times: SessionTimes) => Math.min(60_000, times.idleMs / 10);

const hashOf = (id: string) => createHash('sha256').update(id, 'utf8').digest('hex');

/** The cookie: never readable by scripts, never sent from another site, only over HTTPS (or http://localhost). */
export function sessionCookie(id: string, maxAgeMs: number): string {
  return `${SESSION_COOKIE}=${id}; Path=/; Max-Age=${Math.floor(maxAgeMs / 1000)}; Secure; HttpOnly; SameSite=Strict`;
}
export const clearSessionCookie = () => `${SESSION_COOKIE}=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=Strict`;

/**
 * A new session for the person (sign-in, or a renewal); returns the id, which exists in clear only in the cookie. A
 * renewal passes the end of the session it replaces: a new id never moves the end set at sign-in.
 */
export async function startSession(
  db: DB,
  personId: number,
  times: SessionTimes,
  now = Date.now(),
  expiresAt = now + times.absoluteMs,
): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  // Sessions that ended without a sign-out are swept here, where sessions are made (a sign-in is rare).
  await db
    .deleteFrom('console_sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', now - times.idleMs)]))
    .execute();
  await db
    .insertInto('console_sessions')
    .values({
      id_hash: hashOf(id),
      person_id: personId,
      created_at: now,
      last_seen_at: now,
      expires_at: expiresAt,
    })
    .execute();
  return id;
}

export interface Session {
  idHash: string;
  person: Person;
}

/** The live session the request's cookie names, or null (none, unknown, timed out, or its person disabled). */
export async function currentSession(
  db: DB,
  req: Pick<IncomingMessage, 'headers'>,
  times: SessionTimes,
  now = Date.now(),
): Promise<Session | null> {
  const id = requestCookies(req)[SESSION_COOKIE];
  if (!id || id.length > 100) return null;
  const idHash = hashOf(id);
  const row = await db
    .selectFrom('console_sessions')
    .select(['person_id', 'last_seen_at', 'expires_at'])
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
  if (!row) return null;
  if (Number(row.expires_at) <= now || Number(row.last_seen_at) + times.idleMs <= now) {
    await db.deleteFrom('console_sessions').where('id_hash', '=', idHash).execute();
    return null;
  }
  const person = await getPerson(db, Number(row.person_id));
  if (!person || person.disabled) return null;
  if (now - Number(row.last_seen_at) >= touchEvery(times))
    await db.updateTable('console_sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();
  return { idHash, person };
}

export async function endSession(db: DB, idHash: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('id_hash', '=', idHash).execute();
}

/** Every session of the person, on every instance (sign out everywhere, disable, a change of roles). */
/** When a live session ends in any case (12 hours after its sign-in), or null when it is gone. */
export async function sessionEnd(db: DB, idHash: string): Promise<number | null> {
  const row = await db
    .selectFrom('console_sessions')
    .select('expires_at')
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
  return row ? Number(row.expires_at) : null;
}

export async function endSessionsOf(db: DB, personId: number): Promise<void> {
  await db.deleteFrom('console_sessions').where('person_id', '=', personId).execute();
}

/** The session id a request presented before sign-in, so it can be ended (no fixation: sign-in always makes a new one). */
export const presentedSessionHash = (req: Pick<IncomingMessage, 'headers'>): string | null => {
  const id = requestCookies(req)[SESSION_COOKIE];
  return id ? hashOf(id) : null;
};
