/**
 * Passkeys (WebAuthn through @simplewebauthn/server): registration from an invitation or while signed in, and
 * sign-in with a discoverable credential. User verification is required every time. The relying party is the
 * console's origin: its hostname is the RP ID, and an answer made for another origin or RP ID is refused.
 * A challenge is kept in the database (every instance can check it), bound to the browser that asked for it (a
 * flow cookie's hash), expires within minutes, and is deleted by its first use, so an answer cannot be replayed.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { z } from 'zod';
import type { DB } from '../db/connection';
import { ConsoleError, getPerson, type Person } from './people';

export interface RelyingParty {
  /** The console's origin (the expected origin of every answer). */
  origin: string;
  /** Its hostname. */
  id: string;
  name: string;
}

export const relyingParty = (origin: string): RelyingParty => ({
  origin,
  id: new URL(origin).hostname,
  name: 'AI Tools Directory console',
});

export const FLOW_COOKIE = '__Host-console-flow';
export const CHALLENGE_TTL_MS = 5 * 60_000;

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

type Purpose = 'register' | 'login' | 'add';

export function flowCookie(flow: string): string {
  return `${FLOW_COOKIE}=${flow}; Path=/; Max-Age=${CHALLENGE_TTL_MS / 1000}; Secure; HttpOnly; SameSite=Strict`;
}

async function storeChallenge(
  db: DB,
  challenge: string,
  purpose: Purpose,
  bound: { invitationId?: number; personId?: number },
  now: number,
): Promise<string> {
  const flow = randomBytes(24).toString('base64url');
  // Challenges nobody answered are swept here, the one place they are made.
  await db.deleteFrom('console_challenges').where('expires_at', '<=', now).execute();
  await db
    .insertInto('console_challenges')
    .values({
      challenge,
      purpose,
      flow_hash: sha256(flow),
      invitation_id: bound.invitationId ?? null,
      person_id: bound.personId ?? null,
      expires_at: now + CHALLENGE_TTL_MS,
    })
    .execute();
  return flow;
}

/** The schema of an answer is the library's to check; this only makes sure there is one to read. */
const credentialShape = z
  .object({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal('public-key'),
    response: z.object({ clientDataJSON: z.string().min(1).max(4096) }).passthrough(),
  })
  .passthrough();

const REFUSED = 'The passkey could not be verified. Try again.';

/**
 * The challenge an answer claims (from its clientDataJSON), taken out of the database: it must exist, not have
 * expired, be for this purpose (and invitation or person), and have been given to the browser presenting `flow`.
 */
async function takeChallenge(
  db: DB,
  response: unknown,
  purpose: Purpose,
  flow: string | undefined,
  bound: { invitationId?: number; personId?: number },
  now: number,
): Promise<string> {
  const shape = credentialShape.safeParse(response);
  if (!shape.success) throw new ConsoleError(400, 'Send the passkey answer as the browser gave it (response).');
  let challenge: unknown;
  try {
    challenge = JSON.parse(Buffer.from(shape.data.response.clientDataJSON, 'base64url').toString('utf8')).challenge;
  } catch {
    throw new ConsoleError(400, 'The passkey answer is not readable.');
  }
  if (typeof challenge !== 'string' || !challenge) throw new ConsoleError(400, 'The passkey answer is not readable.');
  const row = await db
    .deleteFrom('console_challenges')
    .where('challenge', '=', challenge)
    .returningAll()
    .executeTakeFirst();
  const ok =
    row &&
    row.purpose === purpose &&
    Number(row.expires_at) > now &&
    flow !== undefined &&
    row.flow_hash === sha256(flow) &&
    (bound.invitationId === undefined || Number(row.invitation_id) === bound.invitationId) &&
    (bound.personId === undefined || Number(row.person_id) === bound.personId);
  if (!ok) throw new ConsoleError(400, 'This sign-in attempt has expired or was used already. Start again.');
  return challenge;
}

async function passkeysOf(db: DB, personId: number) {
  return db
    .selectFrom('console_passkeys')
    .selectAll()
    .where('person_id', '=', personId)
    .orderBy('created_at')
    .execute();
}

/** Options for navigator.credentials.create(): a discoverable credential, user verification required. */
export async function registrationOptions(
  db: DB,
  rp: RelyingParty,
  person: Person,
  bound: { invitationId?: number; personId?: number },
  now = Date.now(),
) {
  const existing = await passkeysOf(db, person.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: person.email ?? person.name,
    userDisplayName: person.name,
    userID: new TextEncoder().encode(`console-person-${person.id}`),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports ? p.transports.split(',') : [] })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  const flow = await storeChallenge(db, options.challenge, bound.invitationId ? 'register' : 'add', bound, now);
  return { options, flow };
}

/** A verified new passkey, to store (storePasskey) in the same transaction that uses its invitation. */
export interface NewPasskey {
  id: string;
  personId: number;
  publicKey: string;
  counter: number;
  transports: string;
  label: string;
}

/** Checks a registration answer against its challenge, the console's origin and RP ID; the passkey to store. */
export async function verifyRegistration(
  db: DB,
  rp: RelyingParty,
  person: Person,
  input: { response: unknown; flow?: string; label?: string },
  bound: { invitationId?: number; personId?: number },
  now = Date.now(),
): Promise<NewPasskey> {
  const purpose = bound.invitationId ? 'register' : 'add';
  const challenge = await takeChallenge(db, input.response, purpose, input.flow, bound, now);
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch {
    throw new ConsoleError(400, REFUSED);
  }
  if (!verified.verified || !verified.registrationInfo.userVerified) throw new ConsoleError(400, REFUSED);
  const { credential } = verified.registrationInfo;
  const taken = await db.selectFrom('console_passkeys').select('id').where('id', '=', credential.id).executeTakeFirst();
  if (taken) throw new ConsoleError(409, 'This passkey is registered already.');
  return {
    id: credential.id,
    personId: person.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: (credential.transports ?? []).join(','),
    label: (input.label ?? '').trim().slice(0, 64) || `Passkey ${new Date(now).toISOString().slice(0, 10)}`,
  };
}

export async function storePasskey(db: DB, p: NewPasskey, now = Date.now()): Promise<void> {
  await db
    .insertInto('console_passkeys')
    .values({
      id: p.id,
      person_id: p.personId,
      public_key: p.publicKey,
      counter: p.counter,
      transports: p.transports,
      label: p.label,
      created_at: new Date(now).toISOString(),
      last_used_at: null,
    })
    .execute();
}

/** Options for navigator.credentials.get(): any passkey of this console (discoverable), user verification required. */
export async function authenticationOptions(db: DB, rp: RelyingParty, now = Date.now()) {
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required' });
  const flow = await storeChallenge(db, options.challenge, 'login', {}, now);
  return { options, flow };
}

/** A refused sign-in, with the person whose passkey signed the answer when its signature verified (a stolen device
 *  without its PIN, a disabled person). Only then is the attempt that person's: a passkey's id is anyone's to send. */
export class SignInRefused extends ConsoleError {
  constructor(
    message: string,
    readonly signedBy?: number,
  ) {
    super(401, message);
  }
}

/** Verifies a sign-in answer; the person it proves, or a refusal (SignInRefused, 401). */
export async function verifyAuthentication(
  db: DB,
  rp: RelyingParty,
  input: { response: unknown; flow?: string },
  now = Date.now(),
): Promise<Person> {
  const challenge = await takeChallenge(db, input.response, 'login', input.flow, {}, now);
  const response = input.response as AuthenticationResponseJSON;
  const stored = await db.selectFrom('console_passkeys').selectAll().where('id', '=', response.id).executeTakeFirst();
  if (!stored) throw new SignInRefused('This passkey is not known here. Ask an admin for an invitation.');
  const owner = Number(stored.person_id);
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      // Checked below, once the signature is: an answer its passkey signed without verifying the user is the owner's.
      requireUserVerification: false,
      credential: {
        id: stored.id,
        publicKey: new Uint8Array(Buffer.from(stored.public_key, 'base64url')),
        counter: Number(stored.counter),
      },
    });
  } catch {
    throw new SignInRefused(REFUSED);
  }
  if (!verified.verified) throw new SignInRefused(REFUSED);
  if (!verified.authenticationInfo.userVerified) throw new SignInRefused(REFUSED, owner);
  await db
    .updateTable('console_passkeys')
    .set({ counter: verified.authenticationInfo.newCounter, last_used_at: new Date(now).toISOString() })
    .where('id', '=', stored.id)
    .execute();
  const person = await getPerson(db, owner);
  if (!person || person.disabled) throw new SignInRefused('This account is disabled. Ask an admin.', owner);
  return person;
}

export interface PasskeyInfo {
  id: string;
  label: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export async function listPasskeys(db: DB, personId: number): Promise<PasskeyInfo[]> {
  return (await passkeysOf(db, personId)).map((p) => ({
    id: p.id,
    label: p.label,
    createdAt: p.created_at,
    lastUsedAt: p.last_used_at,
  }));
}

/** Removes one of the person's passkeys; never the last one (the person could not sign in again). */
export async function removePasskey(db: DB, personId: number, id: string): Promise<PasskeyInfo> {
  const all = await listPasskeys(db, personId);
  const found = all.find((p) => p.id === id);
  if (!found) throw new ConsoleError(404, 'No such passkey of yours.');
  if (all.length === 1) throw new ConsoleError(409, 'This is your only passkey: add another before removing it.');
  await db.deleteFrom('console_passkeys').where('id', '=', id).where('person_id', '=', personId).execute();
  return found;
}
