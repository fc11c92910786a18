/** The admins' pages: people, roles and invitations, release tokens, and the audit trail (read only). */
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { success } from '@aitools/contracts/answers';
import { inTransaction, type DB } from '../db/connection';
import { createToken, listTokens, parseRemotes, revokeToken, TokenError } from '../releases/tokens';
import { listAudit, personActor, writeAudit } from './audit';
import { publicPerson } from './auth';
import { readBody } from './body';
import { addressOf, allow, personOf } from './guard';
import { createInvitation } from './invitations';
import {
  ConsoleError,
  createPerson,
  findPerson,
  listPeople,
  newPersonSchema,
  setDisabled,
  setRoles,
  type Person,
} from './people';
import { describeRoles, rolesSchema, type Role } from './roles';
import { endSessionsOf, sessionCookie, startSession, type SessionTimes } from './sessions';

const rolesBody = z.object({ roles: rolesSchema }).strict();
const tokenBody = z.object({ label: z.string().max(64), remotes: z.array(z.string().max(32)).min(1).max(10) }).strict();

export function adminRouter(opts: { db: DB; origin: string; times: SessionTimes }): Router {
  const { db, origin, times } = opts;
  const router = Router();
  const admin = (action: string) => allow(db, 'admin', action);
  const audit = (req: Request, res: Response, action: string, target: string, summary: string) =>
    writeAudit(db, { actor: personActor(personOf(res)), action, target, summary, address: addressOf(req) });
  const idOf = (req: Request) => Number((req.params as { id: string }).id);

  /** An admin never leaves the console without one: the last enabled admin keeps the role and stays enabled. */
  const assertAnotherAdmin = async (person: Person) => {
    const admins = (await listPeople(db)).filter((p) => !p.disabled && p.roles.some((r) => r.role === 'admin'));
    if (admins.length === 1 && admins[0]!.id === person.id)
      throw new ConsoleError(409, 'This is the only admin: make another admin first.');
  };

  router.get('/people', admin('people.read'), async (_req, res) => {
    res.json(success({ people: (await listPeople(db)).map(publicPerson) }));
  });

  router.post('/invitations', admin('person.invite'), async (req, res) => {
    const body = readBody(newPersonSchema, req.body);
    const person = await createPerson(db, body);
    const invitation = await createInvitation(db, { personId: person.id, origin, by: personActor(personOf(res)) });
    await audit(
      req,
      res,
      'person.invite',
      `person ${person.id} ${person.name}`,
      `invited as ${describeRoles(person.roles)}`,
    );
    res.status(201).json(success({ person: publicPerson(person), ...invitation }));
  });

  // Recovery: a new one-time link for an existing person (a lost passkey); earlier unused links end.
  router.post('/people/:id/invitation', admin('person.recover'), async (req, res) => {
    const person = await findPerson(db, idOf(req));
    const invitation = await createInvitation(db, { personId: person.id, origin, by: personActor(personOf(res)) });
    await audit(req, res, 'person.recover', `person ${person.id} ${person.name}`, 'new invitation link issued');
    res.json(success(invitation));
  });

  // A change of roles ends the person's sessions (they sign in again and get a new id); an admin changing their own
  // gets a new session at once.
  router.post('/people/:id/roles', admin('person.roles'), async (req, res) => {
    const person = await findPerson(db, idOf(req));
    const { roles } = readBody(rolesBody, req.body);
    if (!roles.some((r) => r.role === 'admin')) await assertAnotherAdmin(person);
    await inTransaction(db, async (trx) => {
      await setRoles(trx, person.id, roles as Role[]);
      await endSessionsOf(trx, person.id);
    });
    const after = await findPerson(db, person.id);
    if (person.id === personOf(res).id)
      res.append('Set-Cookie', sessionCookie(await startSession(db, person.id, times), times.absoluteMs));
    await audit(
      req,
      res,
      'person.roles',
      `person ${person.id} ${person.name}`,
      `${describeRoles(person.roles)} -> ${describeRoles(after.roles)}`,
    );
    res.json(success({ person: publicPerson(after) }));
  });

  router.post('/people/:id/disable', admin('person.disable'), async (req, res) => {
    const person = await findPerson(db, idOf(req));
    await assertAnotherAdmin(person);
    await inTransaction(db, async (trx) => {
      await setDisabled(trx, person.id, true);
      await endSessionsOf(trx, person.id);
    });
    await audit(
      req,
      res,
      'person.disable',
      `person ${person.id} ${person.name}`,
      `${person.disabled ? 'disabled' : 'enabled'} -> disabled`,
    );
    res.json(success({ person: publicPerson(await findPerson(db, person.id)) }));
  });

  router.post('/people/:id/enable', admin('person.enable'), async (req, res) => {
    const person = await findPerson(db, idOf(req));
    await setDisabled(db, person.id, false);
    await audit(
      req,
      res,
      'person.enable',
      `person ${person.id} ${person.name}`,
      `${person.disabled ? 'disabled' : 'enabled'} -> enabled`,
    );
    res.json(success({ person: publicPerson(await findPerson(db, person.id)) }));
  });

  router.get('/tokens', admin('token.read'), async (_req, res) => {
    res.json(success({ tokens: await listTokens(db) }));
  });

  router.post('/tokens', admin('token.create'), async (req, res) => {
    const body = readBody(tokenBody, req.body);
    const remotes = parseRemotes(body.remotes.join(','));
    const token = await createToken(db, { label: body.label, remotes });
    await audit(req, res, 'token.create', body.label, `remotes ${remotes.join(',')}`);
    res.status(201).json(success({ token, label: body.label, remotes }));
  });

  router.post('/tokens/:label/revoke', admin('token.revoke'), async (req, res) => {
    const { label } = req.params as { label: string };
    if (!(await revokeToken(db, label))) throw new TokenError(`No live token is labelled "${label}".`);
    await audit(req, res, 'token.revoke', label, 'revoked');
    res.json(success({ revoked: label }));
  });

  router.get('/audit', admin('audit.read'), async (req, res) => {
    const q = req.query as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' && v.length <= 200 ? v : undefined);
    const before = q.before === undefined ? undefined : Number(q.before);
    if (before !== undefined && (!Number.isSafeInteger(before) || before < 1))
      throw new ConsoleError(400, 'before is an entry id (a positive whole number).');
    res.json(
      success(await listAudit(db, { actor: text(q.actor), action: text(q.action), target: text(q.target), before })),
    );
  });

  return router;
}
