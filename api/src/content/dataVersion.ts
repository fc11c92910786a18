import type { Statement } from 'better-sqlite3';
import type { Expression, ExpressionBuilder, Insertable, Kysely, SqlBool } from 'kysely';
import { inTransaction, sqliteHandle, type DB } from '../db/connection';
import type { Schema } from '../db/schema';
import { DATA_KEY } from '../edge/headers';
import { queuePurge } from '../edge/purges';

/**
 * The public data's version: one row, bumped in the same transaction as every write of public data (tools, blog
 * posts, MCP server records). Caches of reads and pages are keyed by it, and read it for each cached answer, so a
 * write by any other process on the same data (another instance on Postgres, the moderation CLI, a registry import)
 * is seen by the requests that arrive after it.
 * - SQLite: a prepared statement on the connection, synchronous. It may see a bump whose transaction is still open,
 *   which only makes the cache drop its replies early. The answers of one millisecond share one read: under load that
 *   read was a fifth of a cached answer's CPU (docs/performance.md, Per-request work). A bump in this process is
 *   seen at once; another process's, within a millisecond.
 * - Postgres: one query, shared by the readers that ask while it runs.
 */
interface SqliteRead {
  statement: Statement<[], number>;
  version: number;
  /** When it was read (Date.now()), and how many bumps this process had made by then. */
  at: number;
  bumps: number;
}
const sqliteReads = new WeakMap<object, SqliteRead>();
const inFlight = new WeakMap<DB, Promise<number>>();
/** Bumps made by this process (its transactions have no handle to find their read by). */
let bumps = 0;

export function dataVersion(db: DB): number | Promise<number> {
  const handle = sqliteHandle(db);
  if (handle) {
    const now = Date.now();
    let read = sqliteReads.get(handle);
    if (!read) {
      const statement = handle.prepare<[], number>('SELECT version FROM data_version WHERE id = 1').pluck();
      read = { statement, version: 0, at: -1, bumps };
      sqliteReads.set(handle, read);
    }
    if (read.at !== now || read.bumps !== bumps) {
      read.version = read.statement.get() as number;
      read.at = now;
      read.bumps = bumps;
    }
    return read.version;
  }
  let read = inFlight.get(db);
  if (!read) {
    read = db
      .selectFrom('data_version')
      .select('version')
      .where('id', '=', 1)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.version))
      .finally(() => inFlight.delete(db));
    inFlight.set(db, read);
  }
  return read;
}

/** Called by each writer of public data, inside its transaction: the shared caches' pages go with it
 *  (edge/purges.ts). */
export async function bumpDataVersion(db: DB): Promise<void> {
  await db
    .updateTable('data_version')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .execute();
  await queuePurge(db, [DATA_KEY]);
  bumps++;
}

/** Runs one write of public data and bumps the version when it changed a row, in one transaction (the caller's when
 *  it already holds one, as an approval, an import or the seed step do). */
export function publicWrite(db: DB, write: (trx: DB) => Promise<boolean>): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const changed = await write(trx);
    if (changed) await bumpDataVersion(trx);
    return changed;
  });
}

/** The public tables, each keeping its record whole as JSON in `doc`. */
type PublicTable = 'tools' | 'blog_posts' | 'mcp_servers' | 'mcp_inspections';
// The conflict clause names columns of whichever table is given, which Kysely's types cannot follow: loosely typed.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyBuilder = ExpressionBuilder<any, any>;

export interface UpsertRule {
  /** The unique column a second write of the same record clashes on. */
  key: string;
  /** Columns the first write sets and later ones leave as they are. */
  keep?: string[];
  /** When a clashing write replaces the stored row: by default, when its doc differs. */
  replaceWhen?: (eb: AnyBuilder) => Expression<SqlBool>;
}

/**
 * "Upsert, skip if unchanged" for the public data: inserts the row (or rows, with distinct keys and the same
 * columns: one statement), or replaces the stored one with the same key when `replaceWhen` holds, and bumps the data
 * version once, only when a row was written (so the seed at each start leaves the caches alone). Returns whether a
 * row was written.
 */
export function upsertPublic<T extends PublicTable>(
  db: DB,
  table: T,
  row: Insertable<Schema[T]> | Insertable<Schema[T]>[],
  { key, keep = [], replaceWhen }: UpsertRule,
): Promise<boolean> {
  const first = Array.isArray(row) ? row[0] : row;
  if (!first) return Promise.resolve(false);
  const replaced = Object.keys(first).filter((column) => column !== key && !keep.includes(column));
  const differs = (eb: AnyBuilder) => eb(`${table}.doc`, '<>', eb.ref('excluded.doc'));
  return publicWrite(db, async (trx) => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const r = await (trx as unknown as Kysely<any>)
      .insertInto(table as string)
      .values(row)
      .onConflict((oc) =>
        oc
          .column(key)
          .doUpdateSet((eb) => Object.fromEntries(replaced.map((column) => [column, eb.ref(`excluded.${column}`)])))
          .where(replaceWhen ?? differs),
      )
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  });
}
