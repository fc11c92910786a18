/**
 * One data-access layer for both databases: Kysely over better-sqlite3 (the embedded default) or over a pg pool
 * (when DATABASE_URL names a Postgres server). Everything above this folder writes queries once, with the builder.
 */
import Database from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type RawBuilder,
  type SqliteDialectConfig,
} from 'kysely';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate } from './migrations';
import type { DB, Dialect, Schema } from './schema';

export type { DB, Dialect } from './schema';

export const isPostgresUrl = (location: string) => /^postgres(ql)?:\/\//.test(location);

/**
 * Opens (creating if needed) the database with the schema up to date: a Postgres URL, an SQLite file path, or
 * ':memory:' for tests.
 */
export async function openDatabase(location: string): Promise<DB> {
  const db = isPostgresUrl(location) ? openPostgres(location) : openSqlite(location);
  try {
    await migrate(db, dialectOf(db));
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return db;
}

/** The better-sqlite3 handle under each SQLite DB (for the one synchronous read, dataVersion). */
const sqliteHandles = new WeakMap<DB, Database.Database>();
export const sqliteHandle = (db: DB): Database.Database | undefined => sqliteHandles.get(db);

/**
 * SQLite transactions take the write lock when they begin (`BEGIN IMMEDIATE`), not at their first write. A deferred
 * transaction that reads, then writes after another process (a CLI, another server on the file) committed, fails at
 * once with "database is locked": SQLite cannot wait there, so `busy_timeout` never applies. Taken up front, the lock
 * is waited for like any other.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.#config);
  }
}

function openSqlite(path: string): DB {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const handle = new Database(path);
  handle.pragma('journal_mode = WAL');
  handle.pragma('foreign_keys = ON');
  handle.pragma('busy_timeout = 5000');
  // Every acknowledged write is on disk before the answer goes out.
  handle.pragma('synchronous = FULL');
  const db = new Kysely<Schema>({ dialect: new ImmediateSqliteDialect({ database: handle }) });
  sqliteHandles.set(db, handle);
  return db;
}

// Postgres counts (bigint) and numerics arrive as strings by default; the values here fit a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, Number);
pg.types.setTypeParser(pg.types.builtins.NUMERIC, Number);

function openPostgres(url: string): DB {
  // A commit is acknowledged once Postgres has it durable (synchronous_commit on, the server's default).
  // allowExitOnIdle: idle connections never keep a finished command (a CLI, a test worker) alive.
  const pool = new pg.Pool({
    connectionString: url,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    allowExitOnIdle: true,
  });
  // No JIT: the api's statements run in milliseconds, and the planner's guess of a LATERAL unnest's rows made
  // Postgres compile a 1 ms statement for 14 ms (docs/performance.md, Directory search).
  pool.on('connect', (client) => void client.query('SET jit = off').catch(() => {}));
  return new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
}

export function dialectOf(db: DB): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Runs `work` in a transaction, or inside the caller's when it already holds one (an approval, an import, the seed). */
export function inTransaction<T>(db: DB, work: (trx: DB) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/** A text field of a JSON document column ("doc"), the one place the two dialects spell a query differently. */
export function jsonText(db: DB, column: string, field: string): RawBuilder<string | null> {
  return dialectOf(db) === 'postgres'
    ? sql<string | null>`(${sql.ref(column)}::jsonb ->> ${sql.lit(field)})`
    : sql<string | null>`json_extract(${sql.ref(column)}, ${sql.lit(`$.${field}`)})`;
}

/** Whether a text expression contains `text`, case-insensitively, taken literally (its own % _ and \ escaped). */
export function containsText(expr: RawBuilder<unknown> | string, text: string): RawBuilder<boolean> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const value = typeof expr === 'string' ? sql.ref(expr) : expr;
  return sql<boolean>`lower(coalesce(${value}, '')) LIKE ${pattern} ESCAPE '\\'`;
}

/** Refreshes the query planner's statistics (both dialects): what a bulk load needs before its tables are queried. */
export async function refreshPlannerStatistics(db: DB): Promise<void> {
  await sql`ANALYZE`.execute(db);
}
