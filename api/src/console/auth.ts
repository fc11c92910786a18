/**
 * Sign-in with passkeys (contract: /api/auth/*). No self sign-up: a passkey is registered from an invitation, or
 * added while signed in. Every sign-in makes a new session id (a cookie set before it never survives), and the
 * attempts are limited per address and per person, with the site's write limits (middleware/rateLimit.ts).
 */
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { textField } from '@aitools/contracts/fields';
import { success } from '@aitools/contracts/answers';
import { inTransaction, type DB } from '../db/connection';
import { requestCookies } from '../http/cookies';
import { SIGN_IN_PERSON_KEY, type RateLimits } from '../middleware/rateLimit';
import { personActor, writeAudit } from '../content/audit';
import { readBody } from './body';
import { addressOf, auditedChange, personOf, requireSession } from './guard';
import { openInvitation, useInvitation } from './invitations';
import {
  authenticationOptions,
  FLOW_COOKIE,
  flowCookie,
  listPasskeys,
  registrationOptions,
  removePasskey,
  SignInRefused,
  storePasskey,
  verifyAuthentication,
  verifyRegistration,
  type RelyingParty,
} from './passkeys';
import { ConsoleError, type Person } from './people';
import {
  clearSessionCookie,
  currentSession,
  endSession,
  endSessionsOf,
  presentedSessionHash,
  sessionCookie,
  startSession,
  type SessionTimes,
} from './sessions';

/** A passkey's name, as its owner and the admins see it ("Work laptop"). */
const passkeyLabel = textField({ label: 'Passkey name', max: 64 }).optional();
const tokenBody = z.object({ token: z.string().max(200) }).strict();
const registerBody = z.object({ token: z.string().max(200), response: z.unknown(), label: passkeyLabel }).strict();
const loginBody = z.object({ response: z.unknown() }).strict();
const emptyBody = z.object({}).strict();
// The options calls may carry the label the verify call will name (the browser app sends one body to both).
const registerOptionsBody = z.object({ token: z.string().max(200), label: passkeyLabel }).strict();
const addOptionsBody = z.object({ label: passkeyLabel }).strict();
const addBody = z.object({ response: z.unknown(), label: passkeyLabel }).strict();

export const publicPerson = (p: Person) => ({
  id: p.id,
  name: p.name,
  ...(p.email ? { email: p.email } : {}),
  roles: p.roles,
  disabled: p.disabled,
});

export function authRouter(opts: { db: DB; rp: RelyingParty; times: SessionTimes; limits: RateLimits }): Router {
  const { db, rp, times, limits } = opts;
  const router = Router();
  const signedIn = requireSession(db, times);
  const flowOf = (req: Request) => requestCookies(req)[FLOW_COOKIE];

  /** A new session for the person: whatever session id the browser presented before is ended, never kept. */
  const signIn = async (req: Request, res: Response, person: Person) => {
    const presented = presentedSessionHash(req);
    if (presented) await endSession(db, presented);
    const id = await startSession(db, person.id, times);
    res.append('Set-Cookie', sessionCookie(id, times.absoluteMs));
    res.append('Set-Cookie', `${FLOW_COOKIE}=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=Strict`);
  };
  /** An audit row, in the transaction (`trx`) of the change it records where there is one. */
  const audit = (
    trx: DB,
    req: Request,
    actor: string,
    action: string,
    target: string,
    summary: string,
    refused = false,
  ) =>
    writeAudit(trx, { actor, action, target, summary, address: addressOf(req), outcome: refused ? 'refused' : 'ok' });

  router.post('/invitation', limits['sign-in'], async (req, res) => {
    const { token } = readBody(tokenBody, req.body);
    const { person } = await openInvitation(db, token);
    res.json(success({ name: person.name, roles: person.roles }));
  });

  router.post('/register/options', limits['sign-in'], async (req, res) => {
    const { token } = readBody(registerOptionsBody, req.body);
    const invitation = await openInvitation(db, token);
    const { options, flow } = await registrationOptions(db, rp, invitation.person, { invitationId: invitation.id });
    res.append('Set-Cookie', flowCookie(flow)).json(success({ options }));
  });

  router.post('/register/verify', limits['sign-in'], async (req, res) => {
    const body = readBody(registerBody, req.body);
    const invitation = await openInvitation(db, body.token);
    const passkey = await verifyRegistration(
      db,
      rp,
      invitation.person,
      { response: body.response, flow: flowOf(req), label: body.label },
      { invitationId: invitation.id },
    );
    await inTransaction(db, async (trx) => {
      if (!(await useInvitation(trx, invitation.id)))
        throw new ConsoleError(410, 'This invitation link was used already. Ask an admin for a new one.');
      await storePasskey(trx, passkey);
      await audit(
        trx,
        req,
        personActor(invitation.person),
        'passkey.register',
        `person ${invitation.person.id}`,
        `invitation used; passkey "${passkey.label}" added`,
      );
    });
    await signIn(req, res, invitation.person);
    res.json(success({ person: publicPerson(invitation.person) }));
  });

  router.post('/login/options', limits['sign-in'], async (req, res) => {
    readBody(emptyBody, req.body);
    const { options, flow } = await authenticationOptions(db, rp);
    res.append('Set-Cookie', flowCookie(flow)).json(success({ options }));
  });

  // Whether a person's sign-in budget has room for one more attempt (counting it); when not, the limit has answered.
  const personBudget = (req: Request, res: Response, person: number) =>
    new Promise<boolean>((resolve, reject) => {
      res.locals[SIGN_IN_PERSON_KEY] = person;
      res.once('close', () => resolve(false));
      limits['sign-in-person'](req, res, (err?: unknown) => (err ? reject(err) : resolve(true)));
    });

  router.post('/login/verify', limits['sign-in'], async (req, res) => {
    const { response } = readBody(loginBody, req.body);
    let person: Person;
    try {
      person = await verifyAuthentication(db, rp, { response, flow: flowOf(req) });
    } catch (err) {
      // An attempt is a person's only when their passkey signed it; one that merely names a passkey is anonymous,
      // so it neither stands in their name on the trail nor spends their budget (docs/operations.md, The console).
      const signedBy = err instanceof SignInRefused ? err.signedBy : undefined;
      if (signedBy !== undefined && !(await personBudget(req, res, signedBy))) return;
      const actor = signedBy === undefined ? 'anonymous' : `person:${signedBy}`;
      const target = signedBy === undefined ? '-' : `person ${signedBy}`;
      await audit(db, req, actor, 'auth.sign-in', target, (err as Error).message, true);
      throw err;
    }
    if (!(await personBudget(req, res, person.id))) return;
    await signIn(req, res, person);
    await audit(db, req, personActor(person), 'auth.sign-in', `person ${person.id}`, 'signed in with a passkey');
    res.json(success({ person: publicPerson(person) }));
  });

  router.post('/logout', async (req, res) => {
    const person = (await currentSession(db, req, times))?.person;
    const presented = presentedSessionHash(req);
    await inTransaction(db, async (trx) => {
      if (presented) await endSession(trx, presented);
      if (person)
        await audit(trx, req, personActor(person), 'auth.sign-out', `person ${person.id}`, 'this session ended');
    });
    res.append('Set-Cookie', clearSessionCookie()).status(204).end();
  });

  router.post('/logout-everywhere', signedIn, async (req, res) => {
    const person = personOf(res);
    await auditedChange(db, req, res, 'auth.sign-out-everywhere', async (trx) => {
      await endSessionsOf(trx, person.id);
      return { target: `person ${person.id}`, summary: 'every session ended', answer: null };
    });
    res.append('Set-Cookie', clearSessionCookie()).status(204).end();
  });

  router.get('/me', signedIn, (_req, res) => {
    res.json(success({ person: publicPerson(personOf(res)) }));
  });

  router.get('/passkeys', signedIn, async (_req, res) => {
    res.json(success({ passkeys: await listPasskeys(db, personOf(res).id) }));
  });

  router.post('/passkeys/add/options', signedIn, async (req, res) => {
    readBody(addOptionsBody, req.body);
    const person = personOf(res);
    const { options, flow } = await registrationOptions(db, rp, person, { personId: person.id });
    res.append('Set-Cookie', flowCookie(flow)).json(success({ options }));
  });

  router.post('/passkeys/add/verify', signedIn, async (req, res) => {
    const person = personOf(res);
    const body = readBody(addBody, req.body);
    const passkey = await verifyRegistration(
      db,
      rp,
      person,
      { response: body.response, flow: flowOf(req), label: body.label },
      { personId: person.id },
    );
    await auditedChange(db, req, res, 'passkey.add', async (trx) => {
      await storePasskey(trx, passkey);
      return { target: `person ${person.id}`, summary: `passkey "${passkey.label}" added`, answer: null };
    });
    res.json(success({ passkeys: await listPasskeys(db, person.id) }));
  });

  router.post('/passkeys/:id/delete', signedIn, async (req, res) => {
    const person = personOf(res);
    await auditedChange(db, req, res, 'passkey.remove', async (trx) => {
      const removed = await removePasskey(trx, person.id, String((req.params as { id: string }).id));
      return { target: `person ${person.id}`, summary: `passkey "${removed.label}" removed`, answer: null };
    });
    res.status(204).end();
  });

  return router;
}
