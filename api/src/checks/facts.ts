/**
 * The checks as a server's page and /v0.1 show them: the findings of its inspection (with moderators' dismissals),
 * its license, its tool history and rug-pull flags; and the count of open findings per server for the cards' badge
 * and the "no open findings" filter. A moderator's dismissal is a public write: the cached pages follow it.
 */
import type { ChecksFacts, Finding } from '@aitools/contracts/checks';
import type { McpInspection } from '@aitools/contracts/inspection';
import type { DB } from '../db/connection';
import { publicWrite } from '../content/dataVersion';
import { historiesOf } from './history';
import { bySlug } from './bySlug';
import { licenseFacts } from './license';
import { scanInspection } from './scan';
import { failingServers, healthFactsOf } from './health';

async function dismissalsOf(db: DB, slugs?: string[]) {
  let q = db.selectFrom('check_dismissals').selectAll();
  if (slugs) {
    if (!slugs.length) return [];
    q = q.where('tool_slug', 'in', slugs);
  }
  return q.execute();
}

/** The inspection's findings, each dismissed one with its reason and time. */
export async function findingsOf(db: DB, slug: string, inspection: McpInspection): Promise<Finding[]> {
  return withDismissals(inspection, await dismissalsOf(db, [slug]));
}

function withDismissals(inspection: McpInspection, dismissals: Awaited<ReturnType<typeof dismissalsOf>>): Finding[] {
  const dismissed = new Map(dismissals.map((d) => [d.finding_id, d]));
  return scanInspection(inspection).map((f) => {
    const d = dismissed.get(f.id);
    return d ? { ...f, dismissed: { reason: d.reason, at: d.dismissed_at } } : f;
  });
}

export async function checksFor(db: DB, slug: string, inspection: McpInspection): Promise<ChecksFacts> {
  return (await checksForAll(db, new Map([[slug, inspection]]))).get(slug)!;
}

/** checksFor each inspected server of a page of /v0.1 answers, by slug, in a few queries whatever their number. */
export async function checksForAll(db: DB, inspections: Map<string, McpInspection>): Promise<Map<string, ChecksFacts>> {
  const slugs = [...inspections.keys()];
  const dismissals = bySlug(await dismissalsOf(db, slugs));
  const health = await healthFactsOf(db, slugs);
  const histories = await historiesOf(db, slugs);
  const out = new Map<string, ChecksFacts>();
  for (const [slug, inspection] of inspections) {
    const findings = withDismissals(inspection, dismissals.get(slug) ?? []);
    const facts = health.get(slug);
    out.set(slug, {
      findings,
      open: findings.filter((f) => !f.dismissed).length,
      license: licenseFacts(inspection.license),
      ...histories.get(slug)!,
      ...(facts ? { health: facts } : {}),
    });
  }
  return out;
}

/** Open findings per inspected server, by its tool's slug (servers without any are left out). */
export async function openFindingCounts(db: DB): Promise<Map<string, number>> {
  const [rows, dismissals] = await Promise.all([
    db.selectFrom('mcp_inspections').select(['tool_slug', 'doc']).execute(),
    dismissalsOf(db),
  ]);
  const dismissed = new Set(dismissals.map((d) => `${d.tool_slug}\n${d.finding_id}`));
  const out = new Map<string, number>();
  for (const r of rows) {
    const open = scanInspection(JSON.parse(r.doc) as McpInspection).filter(
      (f) => !dismissed.has(`${r.tool_slug}\n${f.id}`),
    ).length;
    if (open) out.set(r.tool_slug, open);
  }
  return out;
}

export class CheckError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A moderator's dismissal of one of a server's findings, with the reason (the caller writes the audit row in the
 *  same transaction). Refuses a finding the server's current inspection does not have. */
export async function dismissFinding(
  db: DB,
  slug: string,
  findingId: string,
  reason: string,
  by: string,
  now = new Date(),
): Promise<Finding> {
  const row = await db.selectFrom('mcp_inspections').select('doc').where('tool_slug', '=', slug).executeTakeFirst();
  const finding = row && scanInspection(JSON.parse(row.doc) as McpInspection).find((f) => f.id === findingId);
  if (!finding) throw new CheckError(404, `No finding ${findingId} on ${slug}.`);
  await publicWrite(db, async (trx) => {
    await trx
      .insertInto('check_dismissals')
      .values({ tool_slug: slug, finding_id: findingId, reason, dismissed_by: by, dismissed_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['tool_slug', 'finding_id']).doUpdateSet({ reason, dismissed_by: by }))
      .execute();
    return true;
  });
  return finding;
}

/** A moderator's review of a change within one version (the caller writes the audit row). */
export async function reviewRugPull(db: DB, id: number, reason: string, by: string, now = new Date()) {
  const flag = await db.selectFrom('check_rug_pulls').selectAll().where('id', '=', id).executeTakeFirst();
  if (!flag) throw new CheckError(404, `No flagged change ${id}.`);
  if (flag.reviewed_at) throw new CheckError(409, `The change ${id} was already reviewed.`);
  await publicWrite(db, async (trx) => {
    await trx
      .updateTable('check_rug_pulls')
      .set({ reviewed_at: now.toISOString(), reviewed_by: by, review_reason: reason })
      .where('id', '=', id)
      .execute();
    return true;
  });
  return flag;
}

/** The moderators' queue: changes within one version not yet reviewed, open findings per server, and the remote
 *  servers failing for 7 days. */
export async function checksQueue(db: DB) {
  const flags = await db
    .selectFrom('check_rug_pulls')
    .select(['id', 'tool_slug', 'version', 'flagged_at'])
    .where('reviewed_at', 'is', null)
    .orderBy('id')
    .execute();
  const rows = await db.selectFrom('mcp_inspections').select(['tool_slug', 'doc']).orderBy('tool_slug').execute();
  const findings: { slug: string; findings: Finding[] }[] = [];
  for (const r of rows) {
    const list = await findingsOf(db, r.tool_slug, JSON.parse(r.doc) as McpInspection);
    if (list.length) findings.push({ slug: r.tool_slug, findings: list });
  }
  return {
    rugPulls: flags.map((f) => ({ id: f.id, slug: f.tool_slug, version: f.version, flaggedAt: f.flagged_at })),
    findings,
    // Remote servers whose every health check failed for 7 days or more.
    failing: await failingServers(db),
  };
}
