/**
 * Release files as database rows (several instances on Postgres; the code also runs on an SQLite file, which the
 * tests use): each distinct content once in release_contents, keyed by its sha256; a stored_releases row per release
 * (its release.json) and a release_paths row per file naming its content. A release's rows are written in one
 * transaction: it is there whole or not at all. RELEASES_DIR is this instance's local copy, filled on first need
 * (materialise) and refilled when a release's folder or one of its files is gone.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { REMOTE_NAMES } from '../paths';
import { dialectOf, type DB } from '../db/connection';
import { checkRelease } from './health';
import { releaseMetaSchema, type ReleaseMeta } from './manifest';
import { releaseDir } from './layout';
import { listFolders, placeRelease, releaseExists, stagingDir } from './localCopy';
import type { ReleaseStore } from './releaseStore';
import { entryProblem } from './upload';

/** Serialises writers of release rows: a content row is never removed while a release being stored refers to it. */
const RELEASE_FILES_LOCK = 7134003;
async function lockReleaseFiles(trx: DB): Promise<void> {
  if (dialectOf(trx) === 'postgres') await sql`SELECT pg_advisory_xact_lock(${RELEASE_FILES_LOCK})`.execute(trx);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The files of a release folder (release.json aside: it is the release's row), by their path in the release. */
function filesOf(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .map((p) => p.split(sep).join('/'))
    .filter((p) => p !== 'release.json' && statSync(join(dir, p)).isFile())
    .sort();
}

async function insertRelease(trx: DB, dir: string, meta: ReleaseMeta): Promise<void> {
  await trx
    .insertInto('stored_releases')
    .values({ remote: meta.remote, release_id: meta.id, meta: JSON.stringify(meta), built_at: meta.builtAt })
    .execute();
  for (const path of filesOf(dir)) {
    const bytes = readFileSync(join(dir, path));
    const digest = sha256(bytes);
    // Content-addressed: a file another release holds already is stored once.
    await trx
      .insertInto('release_contents')
      .values({ sha256: digest, bytes })
      .onConflict((oc) => oc.column('sha256').doNothing())
      .execute();
    await trx
      .insertInto('release_paths')
      .values({ remote: meta.remote, release_id: meta.id, path, sha256: digest })
      .execute();
  }
}

const parseMeta = (text: string): ReleaseMeta | null => {
  try {
    const parsed = releaseMetaSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

export interface DatabaseReleaseOptions {
  /** Take over the local folder's releases when the table is still empty (a store that served from folders). */
  importFolder?: boolean;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

export async function databaseReleaseStore(
  db: DB,
  releasesDir: string,
  opts: DatabaseReleaseOptions = {},
): Promise<ReleaseStore> {
  const fetching = new Map<string, Promise<boolean>>();

  const meta = async (remote: string, id: string) => {
    const row = await db
      .selectFrom('stored_releases')
      .select('meta')
      .where('remote', '=', remote)
      .where('release_id', '=', id)
      .executeTakeFirst();
    return row ? parseMeta(row.meta) : null;
  };

  /** Writes the release from its rows into a staging folder, checks each file against its digest, then swaps it in. */
  async function fetchRelease(remote: string, id: string): Promise<boolean> {
    const m = await meta(remote, id);
    if (!m) return false;
    const rows = await db
      .selectFrom('release_paths')
      .innerJoin('release_contents', 'release_contents.sha256', 'release_paths.sha256')
      .select(['release_paths.path', 'release_paths.sha256', 'release_contents.bytes'])
      .where('release_paths.remote', '=', remote)
      .where('release_paths.release_id', '=', id)
      .execute();
    const staging = stagingDir(releasesDir, `fetch-${remote}`);
    try {
      for (const row of rows) {
        const bytes = Buffer.from(row.bytes);
        if (entryProblem({ path: row.path, type: 'File' }) || sha256(bytes) !== row.sha256)
          throw new Error(`release ${remote}/${id}: the stored file ${row.path} is not what its row names`);
        const file = join(staging, row.path);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, bytes);
      }
      mkdirSync(staging, { recursive: true });
      placeRelease(releasesDir, staging, m, true);
      // Whole only if it now passes the checks (a stored copy that does not is not fetched again and again).
      return checkRelease(releasesDir, remote, id).ok;
    } catch (err) {
      rmSync(staging, { recursive: true, force: true });
      throw err;
    }
  }

  const hasPath = async (remote: string, id: string, path: string) =>
    Boolean(
      await db
        .selectFrom('release_paths')
        .select('path')
        .where('remote', '=', remote)
        .where('release_id', '=', id)
        .where('path', '=', path)
        .executeTakeFirst(),
    );

  const store: ReleaseStore = {
    releasesDir,
    fetches: true,
    async put(dir, m) {
      await db.transaction().execute(async (trx) => {
        await lockReleaseFiles(trx);
        const exists = await trx
          .selectFrom('stored_releases')
          .select('release_id')
          .where('remote', '=', m.remote)
          .where('release_id', '=', m.id)
          .executeTakeFirst();
        if (exists) throw releaseExists(m);
        await insertRelease(trx, dir, m);
      });
      // Stored: a leftover local folder of that id (from an earlier, failed write) gives way.
      placeRelease(releasesDir, dir, m, true);
    },
    meta,
    async list(remote) {
      const rows = await db
        .selectFrom('stored_releases')
        .select('meta')
        .where('remote', '=', remote)
        .orderBy('built_at', 'desc')
        .execute();
      return rows.map((r) => parseMeta(r.meta)).filter((m): m is ReleaseMeta => m !== null);
    },
    async remove(remote, ids) {
      if (!ids.length) return;
      await db.transaction().execute(async (trx) => {
        await lockReleaseFiles(trx);
        await trx.deleteFrom('release_paths').where('remote', '=', remote).where('release_id', 'in', ids).execute();
        await trx.deleteFrom('stored_releases').where('remote', '=', remote).where('release_id', 'in', ids).execute();
        // Contents no release refers to any more.
        await trx
          .deleteFrom('release_contents')
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('release_paths')
                  .select('path')
                  .whereRef('release_paths.sha256', '=', 'release_contents.sha256'),
              ),
            ),
          )
          .execute();
      });
      for (const id of ids) rmSync(releaseDir(releasesDir, remote, id), { recursive: true, force: true });
    },
    async tidy() {
      const removed: string[] = [];
      for (const remote of REMOTE_NAMES) {
        let local: string[];
        try {
          local = readdirSync(join(releasesDir, remote));
        } catch {
          continue;
        }
        // Read after the folder: a copy placed meanwhile was stored before it was placed, so it is in these rows.
        const rows = await db.selectFrom('stored_releases').select('release_id').where('remote', '=', remote).execute();
        const stored = new Set(rows.map((r) => r.release_id));
        for (const id of local.filter((id) => !stored.has(id))) {
          rmSync(releaseDir(releasesDir, remote, id), { recursive: true, force: true });
          removed.push(`${remote}/${id}`);
        }
      }
      return removed;
    },
    materialise(remote, id, path) {
      const key = `${remote}/${id}`;
      const running = fetching.get(key);
      if (running) return running;
      const work = (async () => {
        const local = checkRelease(releasesDir, remote, id);
        if (local.ok && (!path || existsSync(join(releaseDir(releasesDir, remote, id), path)))) return true;
        // A file the release does not have is a 404, not a reason to fetch it again.
        if (local.ok && path && !(await hasPath(remote, id, path))) return false;
        return fetchRelease(remote, id);
      })().finally(() => fetching.delete(key));
      fetching.set(key, work);
      return work;
    },
  };

  if (opts.importFolder) await importFolder(db, releasesDir, opts.logger);
  return store;
}

/** Takes over the local folder's intact releases once, when the table has none yet (switching a store to Postgres). */
async function importFolder(db: DB, releasesDir: string, logger?: DatabaseReleaseOptions['logger']): Promise<void> {
  const found = REMOTE_NAMES.flatMap((remote) =>
    listFolders(releasesDir, remote).filter((m) => checkRelease(releasesDir, remote, m.id).ok),
  );
  if (!found.length) return;
  await db.transaction().execute(async (trx) => {
    await lockReleaseFiles(trx);
    if (await trx.selectFrom('stored_releases').select('release_id').limit(1).executeTakeFirst()) return;
    for (const m of found) await insertRelease(trx, releaseDir(releasesDir, m.remote, m.id), m);
    logger?.info({ releases: found.length }, 'release files taken over from the releases folder');
  });
}
