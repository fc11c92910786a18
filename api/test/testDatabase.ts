/**
 * The database a test works on: a fresh in-memory SQLite by default, or, when TEST_DATABASE_URL names a Postgres
 * server (npm test starts a throwaway one), a fresh schema there, so the same tests prove both databases.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DB } from '../src/db/connection';
import type { Schema } from '../src/db/schema';

export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** Where a fresh test database lives: ':memory:'-like for SQLite files (a path under `dir`), a new schema on Postgres. */
export async function testDatabaseLocation(sqlitePath = ':memory:'): Promise<string> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return sqlitePath;
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const located = new URL(url);
  located.searchParams.set('options', `-c search_path=${schema},public`);
  return located.toString();
}

export async function openTestDatabase(sqlitePath?: string): Promise<DB> {
  return openDatabase(await testDatabaseLocation(sqlitePath));
}

/** How many rows a table holds (tests check that writes stored, or did not store, anything). */
export async function countRows(db: DB, table: keyof Schema): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
