/**
 * Reads of release_signals for the console (the counts releases/signals.ts writes): a remote's views and errors per
 * minute and release, and page views per remote per day.
 */
import type { DB } from '../db/connection';

export interface SeriesPoint {
  /** Minutes since 1970 (UTC). */
  minute: number;
  release: string;
  views: number;
  errors: number;
}

const minuteOf = (ms: number) => Math.floor(ms / 60_000);

export async function signalSeries(db: DB, remote: string, fromMs: number, toMs = Date.now()): Promise<SeriesPoint[]> {
  const rows = await db
    .selectFrom('release_signals')
    .select(['minute', 'release_id', 'kind', 'count'])
    .where('remote', '=', remote)
    .where('minute', '>=', minuteOf(fromMs))
    .where('minute', '<=', minuteOf(toMs))
    .orderBy('minute')
    .execute();
  const points = new Map<string, SeriesPoint>();
  for (const r of rows) {
    const key = `${r.minute}\u0000${r.release_id}`;
    let p = points.get(key);
    if (!p) points.set(key, (p = { minute: Number(r.minute), release: r.release_id, views: 0, errors: 0 }));
    if (r.kind === 'view') p.views += Number(r.count);
    else p.errors += Number(r.count);
  }
  return [...points.values()];
}

/** Page views per remote and UTC day over the last `days` days. */
export async function viewsPerRemotePerDay(
  db: DB,
  days: number,
  now = Date.now(),
): Promise<{ day: string; remote: string; views: number }[]> {
  const rows = await db
    .selectFrom('release_signals')
    .select(['remote', 'minute', 'count'])
    .where('kind', '=', 'view')
    .where('minute', '>=', minuteOf(now - days * 86_400_000))
    .execute();
  const out = new Map<string, { day: string; remote: string; views: number }>();
  for (const r of rows) {
    const day = new Date(Number(r.minute) * 60_000).toISOString().slice(0, 10);
    const key = `${day} ${r.remote}`;
    const entry = out.get(key) ?? { day, remote: r.remote, views: 0 };
    entry.views += Number(r.count);
    out.set(key, entry);
  }
  return [...out.values()].sort((a, b) => a.day.localeCompare(b.day) || a.remote.localeCompare(b.remote));
}
