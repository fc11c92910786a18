import { createRequire } from 'node:module';
import { join } from 'node:path';
import { API_DIR } from './harness';

// better-sqlite3 is the API's dependency: load it from there, and only ever read.
type ReadOnlyDb = { prepare(sql: string): { all(...params: unknown[]): unknown[] }; close(): void };
const Database = createRequire(join(API_DIR, 'package.json'))('better-sqlite3') as new (
  path: string,
  opts: object,
) => ReadOnlyDb;

/** Reads the test site's database (DATABASE_PATH), read-only. */
export function queryDb<T>(sql: string, ...params: unknown[]): T[] {
  return queryDbAt<T>(process.env.DATABASE_PATH!, sql, ...params);
}

/** Reads the database at `path`, read-only. */
export function queryDbAt<T>(path: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

// pg is the API's dependency too: one query per connection (the specs ask a handful of questions).
type PgClient = {
  connect(): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  end(): Promise<void>;
};
const Pg = createRequire(join(API_DIR, 'package.json'))('pg') as {
  Client: new (opts: { connectionString: string }) => PgClient;
};

/** Runs one statement on the Postgres database at `url`. */
export async function queryPostgres<T>(url: string, sql: string, ...params: unknown[]): Promise<T[]> {
  const client = new Pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** A throwaway database of its own on the Postgres server `adminUrl` names (E2E_DATABASE_URL): made empty (a
 *  leftover of a killed run dropped first), and dropped by `drop`. */
export async function throwawayPostgres(
  adminUrl: string,
  name: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const database = `${name}_${process.pid}`;
  await queryPostgres(adminUrl, `DROP DATABASE IF EXISTS ${database}`);
  await queryPostgres(adminUrl, `CREATE DATABASE ${database}`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    drop: () => queryPostgres(adminUrl, `DROP DATABASE IF EXISTS ${database}`).then(() => undefined),
  };
}
