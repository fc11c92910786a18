/** Opens the release store a server or a command uses (releaseStore.ts), and fills its local copy before serving. */
import type { Logger } from 'pino';
import { dialectOf, isPostgresUrl, type DB } from '../db/connection';
import type { Manifest } from './manifest';
import { diskReleaseStore } from './diskReleaseStore';
import { fileManifestStore } from './manifestFile';
import type { StoreLocation } from './store';
import { databaseReleaseStore } from './dbReleaseStore';
import type { ReleaseStore } from './releaseStore';

/** The store a server or a command uses: rows on Postgres (taking over the folder's releases when the table is still
 *  empty), else the folders. */
export async function openReleaseStore(opts: {
  releasesDir: string;
  database: string;
  db: DB;
  logger?: Pick<Logger, 'info' | 'warn'>;
}): Promise<ReleaseStore> {
  if (!isPostgresUrl(opts.database) || dialectOf(opts.db) !== 'postgres') return diskReleaseStore(opts.releasesDir);
  return databaseReleaseStore(opts.db, opts.releasesDir, { importFolder: true, logger: opts.logger });
}

/** A release folder's own stores, without a database: manifest.json and the release folders beside it. */
export function localStores(releasesDir: string): StoreLocation {
  return { releasesDir, manifests: fileManifestStore(releasesDir), files: diskReleaseStore(releasesDir) };
}

/** Fills the local copy with the releases the manifest serves (active and canary), before a server answers. */
export async function materialiseServed(
  files: ReleaseStore,
  manifest: Manifest,
  logger?: Pick<Logger, 'warn'>,
): Promise<void> {
  const wanted = Object.entries(manifest.remotes).flatMap(([remote, s]) =>
    [s.active, s.canary?.id].filter((id): id is string => Boolean(id)).map((id) => ({ remote, id })),
  );
  await Promise.all(
    wanted.map(({ remote, id }) =>
      files.materialise(remote, id).then(
        (whole) =>
          void (whole || logger?.warn({ remote, release: id }, 'a served release is not in the release store')),
        (err: unknown) => logger?.warn({ err, remote, release: id }, 'a served release could not be fetched'),
      ),
    ),
  );
}
