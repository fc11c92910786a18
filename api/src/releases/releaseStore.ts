/**
 * Where release files are kept: one interface, two backends. One instance on SQLite: the release folders in
 * RELEASES_DIR are the store (diskReleaseStore.ts). Several instances on Postgres: the files are rows, each distinct
 * content once by its sha256 (dbReleaseStore.ts), and RELEASES_DIR is each instance's local copy, filled on first
 * need. Either way the server serves from the local folder (serving.ts); everything above this interface
 * (store.ts) runs the same on both. This file holds the interface alone: the backends build on it and the factory
 * (openReleaseStore.ts) on them.
 */
import type { ReleaseMeta } from './manifest';

export interface ReleaseStore {
  /** The local copy the server serves from (RELEASES_DIR). */
  readonly releasesDir: string;
  /** Whether a missing or damaged local copy can be fetched again (false: the local folder is the store). */
  readonly fetches: boolean;
  /** Stores a checked release folder (files, and `meta` as its release.json) whole or not at all, and makes it the
   *  local copy of that release (the folder is moved). A release id is never reused: 409. */
  put(dir: string, meta: ReleaseMeta): Promise<void>;
  /** A stored release's release.json, or null when the store holds no such release. */
  meta(remote: string, id: string): Promise<ReleaseMeta | null>;
  /** A remote's stored releases, newest first. */
  list(remote: string): Promise<ReleaseMeta[]>;
  /** Removes releases, and the contents no release left refers to. */
  remove(remote: string, ids: readonly string[]): Promise<void>;
  /** Makes the local copy of a release whole: true when it is (fetched again when it is missing or damaged, or when
   *  `path`, a file of the release, is missing from it), false when the store holds no such release or file. */
  materialise(remote: string, id: string, path?: string): Promise<boolean>;
  /** Removes local copies of releases the store no longer holds (pruned through another instance); returns them as
   *  "remote/id". */
  tidy(): Promise<string[]>;
}
