/** The console's people: a name, an optional email, roles, and whether they are disabled. */
import { z } from 'zod';
import type { Person } from '@aitools/contracts/console';
import { textField } from '@aitools/contracts/fields';
import { INVITE_FORM } from '@aitools/contracts/formFields';
import { dialectOf, type DB } from '../db/connection';
import { readBody } from './body';
import { normaliseRoles, rolesSchema, type Role } from './roles';

export type { Person };

export class ConsoleError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Row = { id: number; name: string; email: string | null; roles: string; disabled: number };

/** Roles as stored; a row that no longer reads as roles grants nothing. */
function parseStoredRoles(json: string): Role[] {
  try {
    const parsed = rolesSchema.safeParse(JSON.parse(json));
    return parsed.success ? (parsed.data as Role[]) : [];
  } catch {
    return [];
  }
}

const fromRow = (r: Row): Person => ({
  id: Number(r.id),
  name: r.name,
  ...(r.email ? { email: r.email } : {}),
  roles: parseStoredRoles(r.roles),
  disabled: Number(r.disabled) === 1,
});

const COLUMNS = ['id', 'name', 'email', 'roles', 'disabled'] as const;

/** A new person, from the console's invitation form and `pnpm console invite` alike. */
export const newPersonSchema = z
  .object({
    name: textField({ label: 'Name', max: 100 }).min(1, 'Name is required'),
    email: z
      .string()
      .trim()
      .email('Email must be an address like name@example.com')
      .max(200, 'Email must be 200 characters or less')
      .optional(),
    roles: rolesSchema,
  })
  .strict();

export async function createPerson(db: DB, input: z.input<typeof newPersonSchema>): Promise<Person> {
  const p = readBody(newPersonSchema, input, INVITE_FORM);
  const row = await db
    .insertInto('console_people')
    .values({
      name: p.name,
      email: p.email ?? null,
      roles: JSON.stringify(normaliseRoles(p.roles)),
      disabled: 0,
      created_at: new Date().toISOString(),
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return fromRow(row);
}

export async function getPerson(db: DB, id: number): Promise<Person | null> {
  const row = await db.selectFrom('console_people').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? fromRow(row) : null;
}

export async function findPerson(db: DB, id: number): Promise<Person> {
  const p = Number.isSafeInteger(id) && id > 0 ? await getPerson(db, id) : null;
  if (!p) throw new ConsoleError(404, `No person with id ${id}.`);
  return p;
}

export async function listPeople(db: DB): Promise<Person[]> {
  return (await db.selectFrom('console_people').select(COLUMNS).orderBy('id').execute()).map(fromRow);
}

/**
 * Everyone, read inside a transaction that changes someone's roles or whether they are enabled. On Postgres the rows
 * stay locked until it commits, so two admins taking away each other's role at the same moment cannot both see
 * another admin left; SQLite runs one transaction at a time.
 */
export async function listPeopleForChange(trx: DB): Promise<Person[]> {
  const rows = await trx
    .selectFrom('console_people')
    .select(COLUMNS)
    .orderBy('id')
    .$if(dialectOf(trx) === 'postgres', (q) => q.forUpdate())
    .execute();
  return rows.map(fromRow);
}

/** An admin never leaves the console without one: the last enabled admin keeps the role and stays enabled. Read in
 *  the change's transaction, the rows locked (listPeopleForChange); the console and the CLI ask it alike. */
export async function assertAnotherAdmin(trx: DB, person: Pick<Person, 'id'>): Promise<void> {
  const admins = (await listPeopleForChange(trx)).filter((p) => !p.disabled && p.roles.some((r) => r.role === 'admin'));
  if (admins.length === 1 && admins[0]!.id === person.id)
    throw new ConsoleError(409, 'This is the only admin: make another admin first.');
}

export async function setRoles(db: DB, id: number, roles: Role[]): Promise<void> {
  await db
    .updateTable('console_people')
    .set({ roles: JSON.stringify(normaliseRoles(roles)) })
    .where('id', '=', id)
    .execute();
}

export async function setDisabled(db: DB, id: number, disabled: boolean): Promise<void> {
  await db
    .updateTable('console_people')
    .set({ disabled: disabled ? 1 : 0 })
    .where('id', '=', id)
    .execute();
}
