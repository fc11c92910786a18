import type { Statement } from 'better-sqlite3';
import type { DB } from './connection';

/**
 * The public data's version: one row, bumped in the same transaction as every write of public data (tools, blog
 * posts, MCP server records). Read from the database each time (a primary-key lookup, a few microseconds), so a
 * write by another process on the same file (the moderation CLI, a registry import) is seen at once.
 */
const statements = new WeakMap<DB, { read: Statement<[], number>; bump: Statement }>();

function prepared(db: DB) {
  let s = statements.get(db);
  if (!s) {
    s = {
      read: db.prepare<[], number>('SELECT version FROM data_version WHERE id = 1').pluck(),
      bump: db.prepare('UPDATE data_version SET version = version + 1 WHERE id = 1'),
    };
    statements.set(db, s);
  }
  return s;
}

export function dataVersion(db: DB): number {
  return prepared(db).read.get() as number;
}

/** Called by each writer of public data, inside its transaction. */
export function bumpDataVersion(db: DB): void {
  prepared(db).bump.run();
}

/**
 * Runs one write of public data and bumps the version when it changed a row, in one transaction (a savepoint when
 * the caller already holds one, as an approval, an import or the seed step do).
 */
export function publicWrite(db: DB, write: () => boolean): boolean {
  return db.transaction(() => {
    const changed = write();
    if (changed) bumpDataVersion(db);
    return changed;
  })();
}
