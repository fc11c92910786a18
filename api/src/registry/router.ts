/**
 * The MCP registry's read API (v0.1; docs/mcp.md, "The registry's format, both ways") over our
 * MCP servers, so a registry client can use the directory as a subregistry. Our own facts about a server
 * (category, popularity, page URL) go under the reverse-DNS `_meta` key META_KEY, as the registry recommends.
 */
import { isRealDateTime } from '@aitools/contracts/fields';
import { Router } from 'express';
import type { DB } from '../db/connection';
import { META_KEY, type McpPackage, type ServerJson } from '@aitools/contracts/mcp';
import { getListedServer, listServers, type ListedServer } from './repository';
import { canonicalUrl } from '@aitools/platform/head-tags';
import { toolPath } from '@aitools/platform/routes';
import { json, type Reply, type ReplyCache } from '../http/cachedResponse';
import { readVersionsFile } from './versions';
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

const encodeCursor = (name: string) => Buffer.from(name, 'utf8').toString('base64url');
function decodeCursor(cursor: string): string | null {
  const name = Buffer.from(cursor, 'base64url').toString('utf8');
  return /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(name) ? name : null;
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
        url: canonicalUrl(origin, toolPath(s.slug)),
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
function movedTo(renamed: Record<string, string>, name: string, rest: string): Reply | null {
  const current = renamed[name];
  if (!current) return null;
  const location = `/v0.1/servers/${encodeURIComponent(current)}${rest}`;
  return {
    ...json({ error: `Renamed to ${current}`, location }, 301, 'public, max-age=3600'),
    headers: { Location: location },
  };
}

/** The directory's search (tools/search.ts findTools), given by the app: it ranks on a floor above this one. */
export type RankTools = (db: DB, text: string) => Promise<{ slug: string }[]>;

/** Every answer depends only on its URL and the data, so each is a cached read. */
/** Healthy now: its last check was, and is still its current health (the cards' and the directory's rule). */
const isCurrentlyHealthy = (last: { at: string; status: string } | undefined, doc: ServerJson) =>
  last?.status === 'healthy' && isCurrentHealth(last.at, doc);

export function registryRouter(db: DB, siteOrigin: string, reads: ReplyCache, rank: RankTools): Router {
  const router = Router();
  const renamed = readVersionsFile()?.renamed ?? {};

  router.get(
    '/servers',
    reads.route(SERVER_LIST_PARAMS, async (req) => {
      const q = req.query as Record<string, unknown>;
      for (const key of SERVER_LIST_PARAMS) {
        if (q[key] !== undefined && typeof q[key] !== 'string') return badRequest(`${key} must be given once`);
      }
      const limit = q.limit === undefined ? DEFAULT_LIMIT : Number(q.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
        return badRequest(`limit must be a whole number from 1 to ${MAX_LIMIT}`);
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
      const page = await listServers(db, { search: search || undefined, ranked, after, updatedSince, limit });
      // Each server has one version here, so 'latest' or its exact version keeps it and any other version drops it.
      const versioned = page.servers.filter(
        (s) => !version || version === 'latest' || version === (s.doc.version ?? UNKNOWN_VERSION),
      );
      const last = page.servers[page.servers.length - 1];
      const inspections = await inspectionsFor(
        db,
        versioned.map((s) => s.slug),
      );
      const checks = await checksForAll(db, inspections);
      const servers = versioned.filter(
        (s) =>
          (!onlyClean || (inspections.get(s.slug)?.status === 'inspected' && checks.get(s.slug)?.open === 0)) &&
          (!onlyHealthy || isCurrentlyHealthy(checks.get(s.slug)?.health?.last, s.doc)),
      );
      const body = {
        servers: servers.map((s) => serverResponse(s, siteOrigin, inspections.get(s.slug), checks.get(s.slug))),
        metadata: { count: servers.length, ...(page.more && last ? { nextCursor: encodeCursor(last.doc.name) } : {}) },
      };
      return json(body, 200);
    }),
  );

  router.get(
    '/servers/:name/versions',
    reads.route([], async (req) => {
      const s = await getListedServer(db, req.params.name as string);
      if (!s) return movedTo(renamed, req.params.name as string, '/versions') ?? notFound();
      const inspections = await inspectionsFor(db, [s.slug]);
      const checks = await checksForAll(db, inspections);
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
        return (
          movedTo(renamed, req.params.name as string, `/versions/${encodeURIComponent(version as string)}`) ??
          notFound()
        );
      if (version !== 'latest' && version !== (s.doc.version ?? UNKNOWN_VERSION)) return notFound();
      const inspections = await inspectionsFor(db, [s.slug]);
      const checks = await checksForAll(db, inspections);
      return json(serverResponse(s, siteOrigin, inspections.get(s.slug), checks.get(s.slug)));
    }),
  );

  return router;
}
