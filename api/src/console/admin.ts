/** The admins' pages: people, roles and invitations, release tokens, and the audit trail (read only). */
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { success } from '@aitools/contracts/answers';
import type { DB } from '../db/connection';
import { createToken, listTokens, parseRemotes, revokeToken, TokenError } from '../releases/tokens';
import { listAudit, personActor } from '../content/audit';
import { publicPerson } from './auth';
import { readBody } from './body';
import { INVITE_FORM, TOKEN_FORM } from '@aitools/contracts/formFields';
import { HttpError } from '../middleware/errors';
import { allow, auditedChange, personOf, sessionOf, type AuditedChange } from './guard';
import { createInvitation } from './invitations';
import {
  assertAnotherAdmin,
  ConsoleError,
  createPerson,
  findPerson,
  listPeople,
  newPersonSchema,
  setDisabled,
  setRoles,
} from './people';
import { describeRoles, rolesSchema, type Role } from './roles';
import { endSessionsOf, sessionCookie, sessionEnd, startSession, type SessionTimes } from './sessions';

const rolesBody = z.object({ roles: rolesSchema }).strict();
const tokenBody = z
  .object({
    label: z.string().trim().min(1, 'Label is required').max(64, 'Label must be 64 characters or less'),
    remotes: z
      .array(z.string().max(32, 'A remote is at most 32 characters'))
      .min(1, 'Name at least one remote, or * for every remote')
      .max(10, 'At most 10 remotes'),
  })
  .strict();

/** A token's remotes; a refusal is the form's Remotes field's reason. */
function tokenRemotes(list: string[]): string[] {
  try {
    return parseRemotes(list.join(','));
  } catch (err) {
    if (err instanceof TokenError) throw new HttpError(400, err.message, { remotes: err.message });
    throw err;
  }
}

export function adminRouter(opts: { db: DB; origin: string; times: SessionTimes }): Router {
  const { db, origin, times } = opts;
  const router = Router();
  const admin = (action: string) => allow(db, 'admin', action);
  const idOf = (req: Request) => Number((req.params as { id: string }).id);
  const audited = <T>(req: Request, res: Response, action: string, change: AuditedChange<T>) =>
    auditedChange(db, req, res, action, change);

  router.get('/people', admin('people.read'), async (_req, res) => {
    res.json(success({ people: (await listPeople(db)).map(publicPerson) }));
  });

  router.post('/invitations', admin('person.invite'), async (req, res) => {
    const body = readBody(newPersonSchema, req.body, INVITE_FORM);
    const answer = await audited(req, res, 'person.invite', async (trx) => {
      const person = await createPerson(trx, body);
      const invitation = await createInvitation(trx, { personId: person.id, origin, by: personActor(personOf(res)) });
      return {
        target: `person ${person.id} ${person.name}`,
        summary: `invited as ${describeRoles(person.roles)}`,
        answer: { person: publicPerson(person), ...invitation },
      };
    });
    res.status(201).json(success(answer));
  });

  // Recovery: a new one-time link for an existing person (a lost passkey); earlier unused links end.
  router.post('/people/:id/invitation', admin('person.recover'), async (req, res) => {
    const invitation = await audited(req, res, 'person.recover', async (trx) => {
      const person = await findPerson(trx, idOf(req));
      return {
        target: `person ${person.id} ${person.name}`,
        summary: 'new invitation link issued',
        answer: await createInvitation(trx, { personId: person.id, origin, by: personActor(personOf(res)) }),
      };
    });
    res.json(success(invitation));
  });

  // A change of roles ends the person's sessions (they sign in again and get a new id); an admin changing their own
  // gets a new session id at once, which ends when the one it replaces would have.
  router.post('/people/:id/roles', admin('person.roles'), async (req, res) => {
    const { roles } = readBody(rolesBody, req.body, INVITE_FORM);
    const own = idOf(req) === personOf(res).id;
    const { after, renewed } = await audited(req, res, 'person.roles', async (trx) => {
      const person = await findPerson(trx, idOf(req));
      if (!roles.some((r) => r.role === 'admin')) await assertAnotherAdmin(trx, person);
      const end = own ? await sessionEnd(trx, sessionOf(res).idHash) : null;
      await setRoles(trx, person.id, roles as Role[]);
      await endSessionsOf(trx, person.id);
      const now = Date.now();
      const renewed = end ? { id: await startSession(trx, person.id, times, now, end), maxAgeMs: end - now } : null;
      const after = await findPerson(trx, person.id);
      return {
        target: `person ${person.id} ${person.name}`,
        summary: `${describeRoles(person.roles)} -> ${describeRoles(after.roles)}`,
        answer: { after, renewed },
      };
    });
    if (renewed) res.append('Set-Cookie', sessionCookie(renewed.id, renewed.maxAgeMs));
    res.json(success({ person: publicPerson(after) }));
  });

  const setEnabled = (enabled: boolean) => async (req: Request, res: Response) => {
    const after = await audited(req, res, enabled ? 'person.enable' : 'person.disable', async (trx) => {
      const person = await findPerson(trx, idOf(req));
      if (!enabled) {
        await assertAnotherAdmin(trx, person);
        await endSessionsOf(trx, person.id);
      }
      await setDisabled(trx, person.id, !enabled);
      return {
        target: `person ${person.id} ${person.name}`,
        summary: `${person.disabled ? 'disabled' : 'enabled'} -> ${enabled ? 'enabled' : 'disabled'}`,
        answer: await findPerson(trx, person.id),
      };
    });
    res.json(success({ person: publicPerson(after) }));
  };
  router.post('/people/:id/disable', admin('person.disable'), setEnabled(false));
  router.post('/people/:id/enable', admin('person.enable'), setEnabled(true));

  router.get('/tokens', admin('token.read'), async (_req, res) => {
    res.json(success({ tokens: await listTokens(db) }));
  });

  router.post('/tokens', admin('token.create'), async (req, res) => {
    const body = readBody(tokenBody, req.body, TOKEN_FORM);
    const remotes = tokenRemotes(body.remotes);
    const token = await audited(req, res, 'token.create', async (trx) => ({
      target: body.label,
      summary: `remotes ${remotes.join(',')}`,
      answer: await createToken(trx, { label: body.label, remotes }),
    }));
    res.status(201).json(success({ token, label: body.label, remotes }));
  });

  router.post('/tokens/:label/revoke', admin('token.revoke'), async (req, res) => {
    const { label } = req.params as { label: string };
    await audited(req, res, 'token.revoke', async (trx) => {
      if (!(await revokeToken(trx, label))) throw new TokenError(`No live token is labelled "${label}".`);
      return { target: label, summary: 'revoked', answer: null };
    });
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
