/**
 * The console's operator commands (run from the repository root, on the server's database):
 *   pnpm console invite --name <name> --role <role> [--role ...] [--remotes blog,...] [--email <address>]
 *                                        a new person and their one-time link (24 h): the first admin starts here
 *   pnpm console recover <id>            a new one-time link for an existing person (a lost passkey)
 *   pnpm console people                  everyone: id, name, roles, disabled
 *   pnpm console roles <id> --role <role> [--role ...] [--remotes ...]   replace a person's roles
 *   pnpm console disable <id> | enable <id>   a disabled person's sessions end at once
 *   pnpm console audit [--actor x] [--action x] [--target x]             the newest audit rows
 * Links use CONSOLE_ORIGIN when given, else the console origin the running site recorded for this database
 * (consoleOrigin.ts), else http://localhost:8081 with a note. Every change is in the audit trail as cli:<os user>.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { inTransaction, openDatabase } from '../db/connection';
import { escapeForDisplay } from '@aitools/contracts/text';
import { cliActor, listAudit, writeAudit } from '../content/audit';
import { linkOrigin } from './consoleOrigin';
import { createInvitation } from './invitations';
import {
  assertAnotherAdmin,
  ConsoleError,
  createPerson,
  findPerson,
  listPeople,
  setDisabled,
  setRoles,
} from './people';
import { describeRoles, rolesSchema, type Role } from './roles';
import { endSessionsOf } from './sessions';

const USAGE = `Usage: pnpm console <command>
  invite --name <name> --role <role> [--role ...] [--remotes blog,...] [--email <address>]
  recover <id>
  people
  roles <id> --role <role> [--role ...] [--remotes blog,...]
  disable <id> | enable <id>
  audit [--actor <text>] [--action <action>] [--target <text>]
Roles: viewer, moderator, editor, release-manager (with --remotes), admin.`;

const { positionals, values } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string', multiple: true },
    remotes: { type: 'string' },
    actor: { type: 'string' },
    action: { type: 'string' },
    target: { type: 'string' },
  },
});
const [command, arg] = positionals;

/** --role flags (and --remotes for a release manager) as roles, or a refusal naming what is wrong. */
function rolesFromFlags(): Role[] {
  const remotes = (values.remotes ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const roles = (values.role ?? []).map((role) => (role === 'release-manager' ? { role, remotes } : { role }));
  const parsed = rolesSchema.safeParse(roles);
  if (!parsed.success)
    throw new ConsoleError(
      2,
      `Give at least one --role (viewer, moderator, editor, release-manager with --remotes, admin). ${parsed.error.issues[0]?.message ?? ''}`,
    );
  return parsed.data as Role[];
}

const idArg = () => {
  const id = Number(arg);
  if (!Number.isSafeInteger(id) || id <= 0)
    throw new ConsoleError(2, `Expected a person's id (see pnpm console people).`);
  return id;
};

const config = loadConfig();
const db = await openDatabase(config.database);
const actor = cliActor();
const { origin, note } = linkOrigin(config, process.env);
/** A link, and on stderr what it assumed when no running site told it the console's address. */
const printLink = (link: string) => {
  console.log(link);
  if (note) console.error(note);
};
try {
  switch (command) {
    case 'invite': {
      if (!values.name?.trim()) throw new ConsoleError(2, 'Give the person a --name.');
      const roles = rolesFromFlags();
      // The person, their link and its audit row stand or fall together.
      const { person, inv } = await inTransaction(db, async (trx) => {
        const person = await createPerson(trx, { name: values.name!.trim(), email: values.email, roles });
        const inv = await createInvitation(trx, { personId: person.id, origin, by: actor });
        await writeAudit(trx, {
          actor,
          action: 'person.invite',
          target: `person ${person.id} ${person.name}`,
          summary: `invited as ${describeRoles(person.roles)}`,
        });
        return { person, inv };
      });
      console.log(`${person.name} (id ${person.id}, ${describeRoles(person.roles)}) registers a passkey at this link,`);
      console.log(`once, until ${inv.expiresAt}:`);
      printLink(inv.link);
      break;
    }
    case 'recover': {
      const person = await findPerson(db, idArg());
      const inv = await inTransaction(db, async (trx) => {
        const inv = await createInvitation(trx, { personId: person.id, origin, by: actor });
        await writeAudit(trx, {
          actor,
          action: 'person.recover',
          target: `person ${person.id} ${person.name}`,
          summary: 'new invitation link issued',
        });
        return inv;
      });
      console.log(`A new passkey for ${person.name}, once, until ${inv.expiresAt}:`);
      printLink(inv.link);
      break;
    }
    case 'people': {
      const people = await listPeople(db);
      if (!people.length) console.log('(nobody yet: pnpm console invite --name <name> --role admin)');
      for (const p of people)
        console.log(
          `${String(p.id).padStart(4)}  ${escapeForDisplay(p.name).padEnd(24)} ${describeRoles(p.roles).padEnd(36)}${p.disabled ? ' disabled' : ''}`,
        );
      break;
    }
    case 'roles': {
      const person = await findPerson(db, idArg());
      const roles = rolesFromFlags();
      const after = await inTransaction(db, async (trx) => {
        if (!roles.some((r) => r.role === 'admin')) await assertAnotherAdmin(trx, person);
        await setRoles(trx, person.id, roles);
        await endSessionsOf(trx, person.id);
        const after = await findPerson(trx, person.id);
        await writeAudit(trx, {
          actor,
          action: 'person.roles',
          target: `person ${person.id} ${person.name}`,
          summary: `${describeRoles(person.roles)} -> ${describeRoles(after.roles)}`,
        });
        return after;
      });
      console.log(`${person.name}: ${describeRoles(after.roles)} (their sessions ended: they sign in again).`);
      break;
    }
    case 'disable':
    case 'enable': {
      const person = await findPerson(db, idArg());
      await inTransaction(db, async (trx) => {
        if (command === 'disable') await assertAnotherAdmin(trx, person);
        await setDisabled(trx, person.id, command === 'disable');
        if (command === 'disable') await endSessionsOf(trx, person.id);
        await writeAudit(trx, {
          actor,
          action: `person.${command}`,
          target: `person ${person.id} ${person.name}`,
          summary: `${person.disabled ? 'disabled' : 'enabled'} -> ${command}d`,
        });
      });
      console.log(`${person.name} ${command}d.`);
      break;
    }
    case 'audit': {
      const { entries } = await listAudit(db, {
        actor: values.actor,
        action: values.action,
        target: values.target,
        limit: 50,
      });
      for (const e of entries.reverse())
        console.log(
          escapeForDisplay(
            `${e.at}  ${e.outcome === 'refused' ? 'REFUSED ' : ''}${e.action}  ${e.target}  by ${e.actor}${e.address ? ` from ${e.address}` : ''}  ${e.summary}`,
          ),
        );
      break;
    }
    default:
      console.error(USAGE);
      process.exitCode = 2;
  }
} catch (err) {
  console.error(`Error: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = err instanceof ConsoleError && err.status === 2 ? 2 : 1;
} finally {
  await db.destroy();
}
