/**
 * The upstream registries this site follows (docs/operations.md, "Following upstream registries"): each a base
 * address speaking `/v0.1` (the official registry, or another copy of this site), the policy for servers new to us,
 * and how many pages one sync may read. Admins edit them in the console; REGISTRY_UPSTREAMS adds its addresses at
 * start when they are missing.
 */
import { z } from 'zod';
import {
  UPSTREAM_POLICIES,
  type SyncCounts,
  type SyncRecord,
  type Upstream,
  type UpstreamPolicy,
} from '@aitools/contracts/upstreams';
import type { DB } from '../db/connection';
import { HttpError } from '../middleware/errors';

export { UPSTREAM_POLICIES, type SyncCounts, type SyncRecord, type Upstream, type UpstreamPolicy };
export const MAX_PAGES_PER_RUN = 1000;

/** An address the sync can follow: http(s), no credentials, query or fragment. A pasted `/v0.1` or `/v0.1/servers`
 *  tail is dropped, since the sync adds it. */
export function upstreamBase(text: string): string | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.search || url.hash)
    return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/v0\.1(\/servers)?$/, '')}`;
}

export const upstreamInputSchema = z
  .object({
    url: z
      .string()
      .trim()
      .max(500, 'Address must be 500 characters or less')
      .transform((text, ctx) => {
        const base = upstreamBase(text);
        if (base === null)
          ctx.addIssue({
            code: 'custom',
            message: 'Address must be a web address starting with https:// or http://, with no query or password',
          });
        return base ?? '';
      }),
    policy: z.enum(UPSTREAM_POLICIES, { message: 'New servers must be "submissions" or "list"' }),
    pagesPerRun: z
      .number({ message: `Pages per run must be a whole number from 1 to ${MAX_PAGES_PER_RUN}` })
      .int(`Pages per run must be a whole number from 1 to ${MAX_PAGES_PER_RUN}`)
      .min(1, `Pages per run must be a whole number from 1 to ${MAX_PAGES_PER_RUN}`)
      .max(MAX_PAGES_PER_RUN, `Pages per run must be a whole number from 1 to ${MAX_PAGES_PER_RUN}`),
  })
  .strict();
export type UpstreamInput = z.infer<typeof upstreamInputSchema>;

type UpstreamRow = Awaited<ReturnType<typeof upstreamRows>>[number];
const upstreamRows = (db: DB) => db.selectFrom('registry_upstreams').selectAll().orderBy('id').execute();

async function lastSyncOf(db: DB, upstreamId: number): Promise<SyncRecord | null> {
  const row = await db
    .selectFrom('registry_syncs')
    .selectAll()
    .where('upstream_id', '=', upstreamId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row
    ? {
        startedAt: row.started_at,
        finishedAt: row.finished_at,
        outcome: row.outcome,
        reason: row.reason,
        counts: JSON.parse(row.counts) as SyncCounts,
      }
    : null;
}

async function toUpstream(db: DB, r: UpstreamRow): Promise<Upstream> {
  const id = Number(r.id);
  return {
    id,
    url: r.url,
    policy: r.policy,
    pagesPerRun: Number(r.pages_per_run),
    since: r.since,
    resumeCursor: r.resume_cursor,
    resumeMark: r.resume_mark,
    lastSync: await lastSyncOf(db, id),
  };
}

export async function listUpstreams(db: DB): Promise<Upstream[]> {
  return Promise.all((await upstreamRows(db)).map((r) => toUpstream(db, r)));
}

export async function findUpstream(db: DB, id: number): Promise<Upstream> {
  const row = Number.isSafeInteger(id)
    ? await db.selectFrom('registry_upstreams').selectAll().where('id', '=', id).executeTakeFirst()
    : undefined;
  if (!row) throw new HttpError(404, `No upstream has id ${id}.`);
  return toUpstream(db, row);
}

const taken = (url: string) =>
  new HttpError(409, `${url} is already followed.`, { url: 'This address is already followed' });

async function assertFree(db: DB, url: string, except?: number): Promise<void> {
  let q = db.selectFrom('registry_upstreams').select('id').where('url', '=', url);
  if (except !== undefined) q = q.where('id', '<>', except);
  if (await q.executeTakeFirst()) throw taken(url);
}

export async function addUpstream(db: DB, input: UpstreamInput): Promise<Upstream> {
  await assertFree(db, input.url);
  const { id } = await db
    .insertInto('registry_upstreams')
    .values({
      url: input.url,
      policy: input.policy,
      pages_per_run: input.pagesPerRun,
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return findUpstream(db, Number(id));
}

/** A new address is a new upstream to us: its sync starts again from the beginning. */
export async function updateUpstream(db: DB, id: number, input: UpstreamInput): Promise<Upstream> {
  const before = await findUpstream(db, id);
  await assertFree(db, input.url, id);
  const moved = before.url !== input.url;
  await db
    .updateTable('registry_upstreams')
    .set({
      url: input.url,
      policy: input.policy,
      pages_per_run: input.pagesPerRun,
      ...(moved ? { since: null, resume_cursor: null, resume_mark: null } : {}),
    })
    .where('id', '=', id)
    .execute();
  return findUpstream(db, id);
}

export async function removeUpstream(db: DB, id: number): Promise<Upstream> {
  const before = await findUpstream(db, id);
  await db.deleteFrom('registry_syncs').where('upstream_id', '=', id).execute();
  await db.deleteFrom('registry_upstreams').where('id', '=', id).execute();
  return before;
}

/** REGISTRY_UPSTREAMS at start: each address not followed yet is added (as moderated submissions); those already
 *  there keep what admins set. */
export async function addConfiguredUpstreams(db: DB, urls: string[], pagesPerRun: number): Promise<void> {
  for (const text of urls) {
    const url = upstreamBase(text);
    if (url === null) throw new Error(`REGISTRY_UPSTREAMS: ${text} is not an address the sync can follow`);
    await db
      .insertInto('registry_upstreams')
      .values({ url, policy: 'submissions', pages_per_run: pagesPerRun, created_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('url').doNothing())
      .execute();
  }
}

export const describeUpstream = (u: Pick<Upstream, 'url' | 'policy' | 'pagesPerRun'>) =>
  `${u.url} (new servers: ${u.policy}, ${u.pagesPerRun} pages per run)`;
