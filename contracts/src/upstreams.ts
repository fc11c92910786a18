/**
 * The upstream registries the site follows, as the api keeps and sends them (api/src/registry/upstreams.ts) and the
 * console's Upstreams screen reads them (docs/operations.md, "Following upstream registries"). Types only, with the
 * policies' list: the api holds the input's schema and the sync.
 */

export const UPSTREAM_POLICIES = ['submissions', 'list'] as const;
export type UpstreamPolicy = (typeof UPSTREAM_POLICIES)[number];

/** What one sync of an upstream did. */
export interface SyncCounts {
  pages: number;
  records: number;
  /** New servers made pending submissions ... */
  added: number;
  /** ... or listed at once (the upstream's policy). */
  listed: number;
  updated: number;
  unchanged: number;
  /** Servers deleted upstream that left our lists. */
  deleted: number;
  /** Records with nothing to do here: deprecated or deleted servers we never had. */
  skipped: number;
}

export interface SyncRecord {
  startedAt: string;
  finishedAt: string;
  outcome: 'ok' | 'refused';
  reason: string | null;
  counts: SyncCounts;
}

/** An upstream registry the site follows, with its last sync. */
export interface Upstream {
  id: number;
  url: string;
  policy: UpstreamPolicy;
  pagesPerRun: number;
  /** The `updated_since` the next sync reads from (null: everything). */
  since: string | null;
  /** Where the last run stopped at its page limit (the next one goes on from there), and the newest change read. */
  resumeCursor: string | null;
  resumeMark: string | null;
  lastSync: SyncRecord | null;
}
