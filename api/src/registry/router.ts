/**
 * The MCP registry's read API (v0.1; docs/mcp.md, "The registry's format, both ways") over our
 * MCP servers, so a registry client can use the directory as a subregistry. Our own facts about a server
 * (category, popularity, page URL) go under the reverse-DNS `_meta` key META_KEY, as the registry recommends.
 */
import { isRealDateTime } from '@aitools/contracts/fields';
import { Router } from 'express';
import type { DB } from '../db/connection';
import { META_KEY, type McpPackage, type ServerJson } from '@aitools/contracts/mcp';
import { getListedServer, listServers, renamedTo, type ListedServer, type ServerPage } from './repository';
import { toolPath } from '@aitools/platform/routes';
import { json, type Reply, type ReplyCache } from '../http/cachedResponse';
import { inspectionsFor } from './inspections';
import { INSPECTION_META_KEY, type McpInspection } from '@aitools/contracts/inspection';
import { CHECKS_META_KEY, type ChecksFacts } from '@aitools/contracts/checks';
import { checksForAll } from '../checks/facts';
import { isCurrentHealth } from '../checks/health';

const DEFAULT_LIMIT = 30;
const MAX_LIMIT = 100;
/** The registry requires a version; a record whose version we do not know says so rather than invent one. */
const UNKNOWN_VERSION = 'unknown';
/** What GET /v0.1/servers reads (docs/mcp.md): its answers are kept per these alone. */
const SERVER_LIST_PARAMS = ['search', 'cursor', 'limit', 'updated_since', 'version', 'findings', 'health'];

/** A filtered list (version, findings, health) reads on past a page's cut until the page is full, at most this many
 *  servers per answer (docs/mcp.md): the filters read each server's checks, which no index holds. */
const MAX_SCANNED = 1000;

const encodeCursor = (name: string) => Buffer.from(name, 'utf8').toString('base64url');
/** The name a cursor of ours encodes, or null. Node's base64url decoder skips characters it does not know, so only
 *  a cursor that is exactly the encoding of a server name is one. */
function decodeCursor(cursor: string): string | null {
  const name = Buffer.from(cursor, 'base64url').toString('utf8');
  return encodeCursor(name) === cursor && /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(name) ? name : null;
}

/** The registry names an image's release by the tag of its identifier (`registry/namespace/repository:tag`), with no
 *  separate version (docs/mcp.md). Our records keep the tag in `version`, which the install snippets leave out so that
 *  they stay unpinned; the answer gives it the registry's way. */
function registryPackage(pkg: McpPackage): McpPackage {
  const lastSegment = pkg.identifier.slice(pkg.identifier.lastIndexOf('/') + 1);
  if (pkg.registryType !== 'oci' || !pkg.version || /[:@]/.test(lastSegment)) return pkg;
  const { version, ...rest } = pkg;
  return { ...rest, identifier: `${pkg.identifier}:${version}` };
}

/** A tool's page on this site, as /v0.1 and the MCP server give it: the site's origin as configured (docs/mcp.md).
 *  Not canonicalUrl, whose https is for search engines' canonical links: a plain start's pages answer on http. */
export const toolPageUrl = (siteOrigin: string, slug: string) => new URL(siteOrigin).origin + toolPath(slug);

function serverResponse(s: ListedServer, origin: string, inspection?: McpInspection, checks?: ChecksFacts) {
  const server: ServerJson = {
    ...s.doc,
    version: s.doc.version ?? UNKNOWN_VERSION,
    ...(s.doc.packages ? { packages: s.doc.packages.map(registryPackage) } : {}),
  };
  return {
    server,
    _meta: {
      [META_KEY]: {
        category: s.category ?? 'MCP Servers',
        popularity: s.popularity ?? null,
        url: toolPageUrl(origin, s.slug),
        slug: s.slug,
        status: s.hiddenAt ? 'deleted' : 'active',
        updatedAt: s.hiddenAt && s.hiddenAt > s.updatedAt ? s.hiddenAt : s.updatedAt,
        isLatest: true,
      },
      // What running the server showed it offers (or why it was not run): our own key, beside the listing's.
      ...(inspection ? { [INSPECTION_META_KEY]: inspection } : {}),
      // Findings in its texts, its license and tool history (docs/mcp.md, "Description checks").
      ...(checks ? { [CHECKS_META_KEY]: checks } : {}),
    },
  };
}

const badRequest = (error: string) => json({ error }, 400);
const notFound = () => json({ error: 'Server not found' }, 404);

/** A server renamed to the name its package publishes: its old address keeps working, pointing at the new one. */
function movedTo(name: string, rest: string): Reply | null {
  const current = renamedTo(name);
  if (!current) return null;
  const location = `/v0.1/servers/${encodeURIComponent(current)}${rest}`;
  return {
    ...json({ error: `Renamed to ${current}`, location }, 301, 'public, max-age=3600'),
    headers: { Location: location },
  };
}

/** The directory's search of MCP servers (tools/search.ts findServers), given by the app: it ranks on a floor above
 *  this one. */
export type RankTools = (db: DB, text: string) => Promise<{ slug: string }[]>;

/** Healthy now: its last check was, and is still its current health (the cards' and the directory's rule). */
const isCurrentlyHealthy = (last: { at: string; status: string } | undefined, doc: ServerJson) =>
  last?.status === 'healthy' && isCurrentHealth(last.at, doc);

/** Each server's inspection and checks, by slug (checks for inspected servers only). */
async function checksOf(db: DB, servers: ListedServer[]) {
  const inspections = await inspectionsFor(
    db,
    servers.map((s) => s.slug),
  );
  return { inspections, checks: await checksForAll(db, inspections) };
}

/**
 * One page of the servers `keep` keeps, read from `list` in batches on past the page's cut until it is full and one
 * more is known to follow (then `next`, the cursor's name). At most MAX_SCANNED servers are read: a page that
 * reaches the bound short of full ends where the reading stopped, with `next` there as more remain to read.
 * Null: `after` is no longer in a search's results (listServers).
 */
async function filledPage(
  list: (after: string | undefined, limit: number) => Promise<ServerPage | null>,
  after: string | undefined,
  limit: number,
  keep: (batch: ListedServer[]) => Promise<ListedServer[]>,
): Promise<{ servers: ListedServer[]; next?: string } | null> {
  const kept: ListedServer[] = [];
  let scanned = 0;
  for (let size = limit + 1; ; size = Math.min(size * 4, MAX_SCANNED - scanned)) {
    const batch = await list(after, size);
    if (!batch) return null;
    scanned += batch.servers.length;
    kept.push(...(await keep(batch.servers)));
    if (kept.length > limit) return { servers: kept.slice(0, limit), next: kept[limit - 1].doc.name };
    if (!batch.more || !batch.servers.length) return { servers: kept };
    after = batch.servers[batch.servers.length - 1].doc.name;
    if (scanned >= MAX_SCANNED) return { servers: kept, next: after };
  }
}

/** Every answer depends only on its URL and the data, so each is a cached read. */
export function registryRouter(db: DB, siteOrigin: string, reads: ReplyCache, rank: RankTools): Router {
  const router = Router();

  router.get(
    '/servers',
    reads.route(SERVER_LIST_PARAMS, async (req) => {
      const q = req.query as Record<string, unknown>;
      for (const key of SERVER_LIST_PARAMS) {
        if (q[key] !== undefined && typeof q[key] !== 'string') return badRequest(`${key} must be given once`);
      }
      // Decimal digits only: Number() would also read 0x10, 1e1, "10." and spaces.
      const limit = q.limit === undefined ? DEFAULT_LIMIT : /^[0-9]+$/.test(q.limit as string) ? Number(q.limit) : NaN;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
        return badRequest(`limit must be a whole number from 1 to ${MAX_LIMIT}, in decimal digits`);
      const after = q.cursor ? decodeCursor(q.cursor as string) : undefined;
      if (after === null) return badRequest('cursor is not one this registry returned');
      let updatedSince: string | undefined;
      if (q.updated_since) {
        if (!isRealDateTime(q.updated_since as string))
          return badRequest('updated_since must be a real RFC 3339 date-time (2026-11-23T10:00:00Z)');
        updatedSince = new Date(q.updated_since as string).toISOString();
      }
      const version = q.version as string | undefined;
      // Our own filter: only servers whose texts were checked and have no open finding.
      if (q.findings !== undefined && q.findings !== 'none') return badRequest('findings must be "none" when given');
      const onlyClean = q.findings === 'none';
      // And only servers whose last health check was healthy (docs/mcp.md, "Health").
      if (q.health !== undefined && q.health !== 'healthy') return badRequest('health must be "healthy" when given');
      const onlyHealthy = q.health === 'healthy';
      const search = ((q.search as string | undefined) ?? '').trim().slice(0, 200);
      const ranked = search ? (await rank(db, search)).map((t) => t.slug) : undefined;
      const list = (from: string | undefined, size: number) =>
        listServers(db, { search: search || undefined, ranked, after: from, updatedSince, limit: size });
      // The filters apply before the page is cut, so a page is full whenever more servers pass them.
      const page = await filledPage(list, after, limit, async (batch) => {
        // Each server has one version here, so 'latest' or its exact version keeps it and any other version drops it.
        const versioned = batch.filter(
          (s) => !version || version === 'latest' || version === (s.doc.version ?? UNKNOWN_VERSION),
        );
        if (!onlyClean && !onlyHealthy) return versioned;
        const { inspections, checks } = await checksOf(db, versioned);
        return versioned.filter(
          (s) =>
            (!onlyClean || (inspections.get(s.slug)?.status === 'inspected' && checks.get(s.slug)?.open === 0)) &&
            (!onlyHealthy || isCurrentlyHealthy(checks.get(s.slug)?.health?.last, s.doc)),
        );
      });
      if (!page)
        return badRequest(
          'cursor no longer names a server in these results (it was removed or is no longer found): start again without it',
        );
      const { inspections, checks } = await checksOf(db, page.servers);
      const body = {
        servers: page.servers.map((s) => serverResponse(s, siteOrigin, inspections.get(s.slug), checks.get(s.slug))),
        metadata: { count: page.servers.length, ...(page.next ? { nextCursor: encodeCursor(page.next) } : {}) },
      };
      return json(body, 200);
    }),
  );

  router.get(
    '/servers/:name/versions',
    reads.route([], async (req) => {
      const s = await getListedServer(db, req.params.name as string);
      if (!s) return movedTo(req.params.name as string, '/versions') ?? notFound();
      const { inspections, checks } = await checksOf(db, [s]);
      return json({
        servers: [serverResponse(s, siteOrigin, inspections.get(s.slug), checks.get(s.slug))],
        metadata: { count: 1 },
      });
    }),
  );

  router.get(
    '/servers/:name/versions/:version',
    reads.route([], async (req) => {
      const s = await getListedServer(db, req.params.name as string);
      const { version } = req.params;
      if (!s)
        return movedTo(req.params.name as string, `/versions/${encodeURIComponent(version as string)}`) ?? notFound();
      if (version !== 'latest' && version !== (s.doc.version ?? UNKNOWN_VERSION)) return notFound();
      const { inspections, checks } = await checksOf(db, [s]);
      return json(serverResponse(s, siteOrigin, inspections.get(s.slug), checks.get(s.slug)));
    }),
  );

  return router;
}
