/**
 * A tool's earlier slugs (docs/operations.md, Editing content: Tools): each old address answers 301 to the tool's current
 * one. A slug change points every alias of the tool at the new slug (content/toolSlugs.ts), so a chain of renames is one
 * redirect.
 */
import type { RequestHandler } from 'express';
import { toolPath } from '@aitools/platform/routes';
import type { DB } from '../db/connection';
import { dataVersion } from '../content/dataVersion';
import { NO_STORE } from '../edge/headers';

// Per database and data version, as the tool list is (tools/repository.ts): a slug change bumps the version.
const held = new WeakMap<DB, { version: number; map: Promise<Map<string, string>> }>();

/** old slug -> current slug, for the tool pages' redirect. */
export async function slugAliases(db: DB): Promise<Map<string, string>> {
  const version = await dataVersion(db);
  let entry = held.get(db);
  if (entry?.version !== version) {
    const map = db
      .selectFrom('tool_slug_aliases')
      .select(['old_slug', 'slug'])
      .execute()
      .then((rows) => new Map(rows.map((r) => [r.old_slug, r.slug])));
    entry = { version, map };
    held.set(db, entry);
    map.catch(() => held.get(db) === entry && held.delete(db));
  }
  return entry.map;
}

/** GET /tool/<old slug>: 301 to the tool's current address, its query kept; any other page goes on. */
export function oldSlugRedirect(db: DB): RequestHandler {
  return (req, res, next) => {
    const slug = (req.params as { slug?: string }).slug ?? '';
    slugAliases(db)
      .then((aliases) => {
        const to = aliases.get(slug);
        if (!to) return next();
        const query = req.originalUrl.indexOf('?');
        // Kept by no cache: a slug can be given back to its tool, and a browser keeps a 301 it may store for good.
        res
          .set('Cache-Control', NO_STORE)
          .redirect(301, toolPath(to) + (query < 0 ? '' : req.originalUrl.slice(query)));
      })
      .catch(next);
  };
}
