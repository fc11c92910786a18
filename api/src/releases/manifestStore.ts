/**
 * Where the release manifest lives. One instance on SQLite: manifest.json beside the release folders (manifestFile.ts).
 * Several instances on one Postgres: rows of release_events, changed in a transaction (the same code also runs on
 * an SQLite file, which the tests use); every instance keeps the
 * manifest in memory (read synchronously) and picks up a change within a second: at once through LISTEN/NOTIFY, and
 * through a cheap version check each second should a notification be missed. Either store tells its listeners
 * (serving.ts) of each change it makes or picks up.
 */
import pg from 'pg';
import { sql, type Selectable } from 'kysely';
import type { ReleaseEventsTable } from '../db/schema';
import type { Logger } from 'pino';
import { dialectOf, isPostgresUrl, type DB } from '../db/connection';
import {
  applyEvent,
  emptyManifest,
  parseManifestText,
  StaleStateError,
  withEvent,
  type Manifest,
  type ManifestEvent,
  type ManifestRead,
  type ManifestStore,
  type RemoteState,
} from './manifest';
import { fileManifestStore, MANIFEST_FILE, readManifestChecked } from './manifestFile';

const CHANNEL = 'aitools_releases';
/** Serialises writers of the manifest across instances and operators' commands. */
const MANIFEST_LOCK = 7134002;
/** Postgres: one writer at a time across instances (SQLite's write lock already serialises transactions). */
async function lockManifest(trx: DB): Promise<void> {
  if (dialectOf(trx) === 'postgres') await sql`SELECT pg_advisory_xact_lock(${MANIFEST_LOCK})`.execute(trx);
}

const good = (manifest: Manifest): ManifestRead => ({
  manifest,
  ok: true,
  fromLastGood: [],
  servingFrom: 'file',
  unrecovered: [],
});

type EventRow = Selectable<ReleaseEventsTable>;

const eventOf = (r: EventRow): ManifestEvent => ({
  action: r.action,
  id: r.release_id,
  from: r.from_id,
  at: r.at,
  by: r.by,
  ...(r.canary !== null ? { canary: Number(r.canary) } : {}),
  ...(r.note !== null ? { note: r.note } : {}),
});

/** The manifest the rows describe, validated like the file (a bad row's remote keeps its last good state). */
function fromRows(rows: EventRow[], lastGood: Manifest | null): ManifestRead {
  let manifest = emptyManifest();
  for (const r of rows) manifest = withEvent(manifest, r.remote, eventOf(r));
  const { manifest: valid, problems } = parseManifestText(JSON.stringify(manifest));
  const bad = Object.keys(problems);
  if (!bad.length) return good(valid);
  const fromLastGood = bad.filter((remote) => lastGood?.remotes[remote]);
  for (const remote of fromLastGood) valid.remotes[remote] = lastGood!.remotes[remote]!;
  return {
    manifest: valid,
    ok: false,
    problem: bad.map((r) => `${r}: ${problems[r]}`).join('; '),
    fromLastGood,
    servingFrom: fromLastGood.length ? 'last-good' : 'file',
    unrecovered: bad.filter((r) => !lastGood?.remotes[r]),
  };
}

export interface DatabaseManifestOptions {
  /** Listen for changes (servers); commands that only read or write once leave it off. */
  listenUrl?: string;
  /** The version check's period (0: none). */
  pollMs?: number;
  /** A manifest.json to take over when the table is still empty (a store that served from the file before). */
  importFrom?: string;
  logger?: Pick<Logger, 'error' | 'warn' | 'info'>;
}

export async function databaseManifestStore(db: DB, opts: DatabaseManifestOptions = {}): Promise<ManifestStore> {
  let current: ManifestRead = good(emptyManifest());
  let lastGood: Manifest | null = null;
  let seen = -1;
  let failing = false;
  const listeners: (() => void)[] = [];
  const changed = () => {
    for (const listener of listeners) listener();
  };

  const load = async () => {
    const rows = (await db.selectFrom('release_events').selectAll().orderBy('id').execute()) as EventRow[];
    current = fromRows(rows, lastGood);
    if (current.ok) lastGood = current.manifest;
    seen = rows.at(-1)?.id ?? 0;
    changed();
  };
  /** The cheap check: the newest row's id (rows are only ever appended). */
  const check = async () => {
    try {
      const { v } = await db
        .selectFrom('release_events')
        .select((eb) => eb.fn.max('id').as('v'))
        .executeTakeFirstOrThrow();
      if (Number(v ?? 0) !== seen) await load();
      if (failing) opts.logger?.info('release manifest readable again');
      failing = false;
    } catch (err) {
      // The database is unreachable: keep serving what is known, and say so on /api/health.
      if (!failing)
        opts.logger?.error(
          { err },
          'release manifest cannot be read from the database; serving the state known before',
        );
      failing = true;
      current = {
        ...current,
        ok: false,
        problem: `the release database cannot be read (${(err as Error).message})`,
        servingFrom: 'last-good',
        fromLastGood: Object.keys(current.manifest.remotes),
      };
      changed();
    }
  };

  if (opts.importFrom) await importFileManifest(db, opts.importFrom, opts.logger);
  await load();

  const timer = opts.pollMs ? setInterval(() => void check(), opts.pollMs) : null;
  timer?.unref();
  let listener: pg.Client | null = null;
  if (opts.listenUrl && isPostgresUrl(opts.listenUrl)) {
    listener = new pg.Client({ connectionString: opts.listenUrl });
    listener.on('notification', () => void check());
    // A lost connection is covered by the version check; the error must not crash the server.
    listener.on('error', (err) =>
      opts.logger?.warn({ err }, 'release notifications stopped; the version check still runs'),
    );
    await listener.connect();
    await listener.query(`LISTEN ${CHANNEL}`);
  }

  return {
    where: 'the release_events table',
    read: () => current,
    async record(remote, event, expect) {
      await db.transaction().execute(async (trx) => {
        await lockManifest(trx);
        // The remote's state as its rows say now (under the lock), not as this instance last loaded it.
        const rows = (await trx
          .selectFrom('release_events')
          .selectAll()
          .where('remote', '=', remote)
          .orderBy('id')
          .execute()) as EventRow[];
        let state: RemoteState | undefined;
        for (const r of rows) state = applyEvent(state, eventOf(r));
        if (expect && !expect(state)) throw new StaleStateError(`the state of ${remote} changed meanwhile`);
        await trx
          .insertInto('release_events')
          .values({
            remote,
            action: event.action,
            release_id: event.id,
            from_id: state?.active ?? null,
            at: event.at,
            by: event.by,
            canary: event.canary ?? null,
            note: event.note ?? null,
          })
          .execute();
        // Delivered to every listening instance when the transaction commits.
        if (dialectOf(trx) === 'postgres') await sql`SELECT pg_notify(${CHANNEL}, ${remote})`.execute(trx);
      });
      await load();
      return current.manifest;
    },
    onChange: (listener) => void listeners.push(listener),
    async close() {
      if (timer) clearInterval(timer);
      await listener?.end().catch(() => {});
    },
  };
}

/** Takes over manifest.json's history once, when the table has no rows yet (switching a store to Postgres). */
async function importFileManifest(
  db: DB,
  releasesDir: string,
  logger?: DatabaseManifestOptions['logger'],
): Promise<void> {
  const file = readManifestChecked(releasesDir);
  if (!file.ok || !Object.keys(file.manifest.remotes).length) return;
  await db.transaction().execute(async (trx) => {
    await lockManifest(trx);
    if (await trx.selectFrom('release_events').select('id').limit(1).executeTakeFirst()) return;
    for (const [remote, state] of Object.entries(file.manifest.remotes)) {
      const history =
        state.history.at(-1)?.id === state.active
          ? state.history
          : [
              ...state.history,
              {
                action: 'release' as const,
                id: state.active,
                from: state.history.at(-1)?.id ?? null,
                at: new Date().toISOString(),
                by: 'import',
              },
            ];
      for (const e of history)
        await trx
          .insertInto('release_events')
          .values({
            remote,
            action: e.action,
            release_id: e.id,
            from_id: e.from,
            at: e.at,
            by: e.by,
            canary: e.canary ?? null,
            note: e.note ?? null,
          })
          .execute();
    }
    logger?.info({ remotes: Object.keys(file.manifest.remotes) }, `release manifest taken over from ${MANIFEST_FILE}`);
  });
}

/** The store a server or a command uses: the database's rows on Postgres, else manifest.json. */
export function openManifestStore(opts: {
  releasesDir: string;
  database: string;
  db: DB;
  serve?: boolean;
  logger?: DatabaseManifestOptions['logger'];
}): Promise<ManifestStore> {
  if (!isPostgresUrl(opts.database) || dialectOf(opts.db) !== 'postgres')
    return Promise.resolve(fileManifestStore(opts.releasesDir));
  return databaseManifestStore(opts.db, {
    importFrom: opts.releasesDir,
    logger: opts.logger,
    ...(opts.serve ? { listenUrl: opts.database, pollMs: 1000 } : {}),
  });
}
