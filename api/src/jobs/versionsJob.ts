/**
 * The versions job (daily): each listed server's package is asked of its registry (npm first, PyPI where the record
 * is packaged there; other registries are not checked and are counted so), and a newer release updates the record
 * (its version and that package's) and queues an inspection. The write goes through the shared write path like any
 * edit: the data version moves, the shared caches are purged and an audit row names the job. A record the registry
 * could not answer for keeps what it has; the run fails with each reason, after writing the others.
 */
import { serverJsonSchema, type ServerJson } from '@aitools/contracts/mcp';
import { issueLines } from '@aitools/contracts/zod';
import type { ServerConfig } from '../config';
import { writeAudit } from '../content/audit';
import { inTransaction, type DB } from '../db/connection';
import { upsertServer } from '../registry/repository';
import type { Job, JobContext } from './job';
import { latestNpm, latestPypi, type Release } from './packageRegistries';
import { queueInspection } from './inspectJob';

export const VERSIONS_JOB = 'versions';

export interface VersionsSettings {
  npmRegistry: string;
  pypi: string;
}

export const versionsSettings = (config: ServerConfig): VersionsSettings => ({
  // The one npm registry the site asks, the inspections' too (NPM_REGISTRY_URL).
  npmRegistry: config.inspection.npmRegistry,
  pypi: config.jobs.pypi,
});

/** The package whose releases the record's version follows: its first npm package, else its first PyPI one. */
export function followedPackage(doc: ServerJson) {
  return doc.packages?.find((p) => p.registryType === 'npm') ?? doc.packages?.find((p) => p.registryType === 'pypi');
}

/** The record at `release`: its version, and the followed package's. */
export function atRelease(doc: ServerJson, identifier: string, release: Release): ServerJson {
  return {
    ...doc,
    version: release.version,
    packages: doc.packages?.map((p) => (p.identifier === identifier ? { ...p, version: release.version } : p)),
  };
}

export async function checkVersions(ctx: JobContext, settings: VersionsSettings): Promise<void> {
  const rows = await ctx.db.selectFrom('mcp_servers').select(['name', 'tool_slug', 'doc']).orderBy('name').execute();
  const failures: string[] = [];
  for (const row of rows) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const doc = JSON.parse(row.doc) as ServerJson;
    const pkg = followedPackage(doc);
    if (!pkg) {
      ctx.changed(doc.packages?.length ? 'not checked (registry out of reach)' : 'remote only', 1);
      continue;
    }
    let release: Release;
    try {
      release =
        pkg.registryType === 'npm'
          ? await latestNpm(settings.npmRegistry, pkg.identifier, ctx.signal)
          : await latestPypi(settings.pypi, pkg.identifier, ctx.signal);
    } catch (err) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      failures.push(`${row.tool_slug}: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    if (doc.version === release.version && pkg.version === release.version) {
      ctx.changed('current', 1);
      continue;
    }
    // The record at its new release meets the rules of every write (a version is text from outside).
    const next = serverJsonSchema.safeParse(atRelease(doc, pkg.identifier, release));
    if (!next.success) {
      failures.push(`${row.tool_slug}: its registry's latest version is refused (${issueLines(next.error, 1)[0]})`);
      continue;
    }
    await recordRelease(ctx.db, ctx.actor, row.tool_slug, doc, next.data, pkg.identifier);
    ctx.changed('updated', 1, `${row.tool_slug} ${doc.version ?? '(none)'} -> ${release.version}`);
    ctx.changed('inspections queued', 1);
  }
  if (failures.length)
    throw new Error(
      `${failures.length} of ${rows.length} servers could not be checked (they keep their version): ${failures.join('; ')}`,
    );
}

/** One record at its new release, its audit row and its inspection queued: one transaction. The record becomes the
 *  database's own (source `import`), so the seed at the next start does not put the old version back. */
async function recordRelease(
  db: DB,
  actor: string,
  slug: string,
  doc: ServerJson,
  next: ServerJson & { version: string },
  identifier: string,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    await upsertServer(trx, { doc: next, toolSlug: slug, source: 'import' });
    await writeAudit(trx, {
      actor,
      action: 'server.version',
      target: `server ${doc.name}`,
      summary: `${doc.version ?? '(none)'} -> ${next.version} (${identifier})`,
    });
    await queueInspection(trx, slug, next.version, `new version ${next.version}`);
  });
}

export function versionsJob(settings: VersionsSettings): Job {
  return {
    name: VERSIONS_JOB,
    every: 86_400_000,
    about:
      "Each server's latest release from its package registry (npm, PyPI); a new one updates the record and queues an inspection.",
    timeoutMs: 30 * 60_000,
    run: (ctx) => checkVersions(ctx, settings),
  };
}
