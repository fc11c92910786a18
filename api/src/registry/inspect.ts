/**
 * `pnpm registry inspect <slug|--all>` (and the site's inspection job): fetches each MCP server's npm package, runs
 * it in the sandbox (sandbox.ts) with the inspector, and writes what it offers to the database: the page changes
 * with the data version, and each new content is kept as a snapshot of its version (checks/history.ts). A server
 * that cannot run here is written with the reason: no npm package, a value it needs that we cannot make up, or the
 * failure (with "needs credentials" where it declares required secrets). Where bubblewrap cannot run, it refuses,
 * unless the operator asks for an unsandboxed run at the terminal (npx as the operator's user, as before the sandbox).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpArgument, McpPackage, ServerJson } from '@aitools/contracts/mcp';
import type { McpInspection } from '@aitools/contracts/inspection';
import { inTransaction, type DB } from '../db/connection';
import { upsertPublic } from '../content/dataVersion';
import { recordSnapshot } from '../checks/history';
import { inspectionConfig, outboundConfig, type InspectionConfig } from '../config';
import { writeAudit } from '../content/audit';
import type { GuardOptions } from '../http/ssrfGuard';
import { DEFAULT_LIMITS, inspectCommand, minimalEnv, type CommandSpec, type RunLimits } from './inspector';
import { npmLicense, npmPackageOf, SERVERS_FILE } from './versions';
import { fetchPackage, INSIDE, sandboxed, sandboxUnavailable } from './sandbox';
import { getInspection } from './inspections';
import { INSPECTIONS_FILE, readInspectionsFile, type InspectionsFile } from '../inspectionsFile';
import { inspectRemote, isRemoteServer } from './remote';

const ABOUT =
  'What each MCP server offers, from running its npm package and asking it over MCP (pnpm registry inspect); loaded by the seed step.';

/** Throwaway places for one inspect command: the servers' HOME, the npm cache they share, a folder to hand out. */
export interface Scratch {
  home: string;
  npmCache: string;
  files: string;
}

export type Plan =
  | {
      /** The unsandboxed run: npx as the operator's user. */
      spec: CommandSpec;
      package: string;
      version: string;
      secrets: string[];
      /** The package's own arguments, and the environment its record declares (fixed values only). */
      args: string[];
      env: Record<string, string>;
    }
  | { skip: string; package?: string; version?: string };

const looksSecret = (a: { name?: string; isSecret?: boolean }) =>
  a.isSecret === true || /key|token|secret|password/i.test(a.name ?? '');

/** The package's own arguments for a run: a throwaway folder for a required path, fixed values as they are; null
 *  (with the reason) when a required value is one only the visitor has. */
function argumentsFor(args: McpArgument[] = [], scratch: Scratch): { args: string[] } | { skip: string } {
  const out: string[] = [];
  for (const a of args) {
    const fixed = a.value !== undefined && !/\{\w+\}/.test(a.value) ? a.value : a.default;
    if (a.type === 'positional') {
      if (fixed !== undefined) out.push(fixed);
      else if (a.format === 'filepath' && a.isRequired) out.push(scratch.files);
      else if (a.isRequired) return { skip: `needs a value for ${a.valueHint ?? 'an argument'}` };
      continue;
    }
    if (fixed !== undefined)
      out.push(...(a.format === 'boolean' && fixed === 'true' ? [a.name] : [`${a.name}=${fixed}`]));
    else if (a.format === 'boolean' && !a.isRequired && a.name === '--stdio') out.push(a.name);
    else if (a.isRequired)
      return { skip: looksSecret(a) ? `needs credentials (${a.name})` : `needs a value for ${a.name}` };
  }
  return { args: out };
}

/** The variables the record sets to a fixed value (no placeholder for the visitor's own, no secret). */
function declaredEnv(pkg: McpPackage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of pkg.environmentVariables ?? []) {
    const fixed = e.value !== undefined && !/\{\w+\}/.test(e.value) ? e.value : e.default;
    if (fixed !== undefined && !looksSecret(e)) out[e.name] = fixed;
  }
  return out;
}

export function planFor(doc: ServerJson, scratch: Scratch): Plan {
  const pkg = npmPackageOf(doc);
  if (!pkg) {
    const kinds = [...new Set((doc.packages ?? []).map((p) => p.registryType))];
    return {
      skip: kinds.length
        ? `no npm package (published on ${kinds.join(' and ')}, which cannot run here)`
        : 'remote server only, no package to run',
    };
  }
  const version = pkg.version ?? doc.version;
  if (!version) return { skip: 'no known version to run', package: pkg.identifier };
  const args = argumentsFor(pkg.packageArguments, scratch);
  if ('skip' in args) return { skip: args.skip, package: pkg.identifier, version };
  const secrets = (pkg.environmentVariables ?? []).filter((e) => e.isRequired && looksSecret(e)).map((e) => e.name);
  const env = declaredEnv(pkg);
  return {
    spec: {
      command: 'npx',
      args: ['-y', `${pkg.identifier}@${version}`, ...args.args],
      env: { ...env, ...minimalEnv(scratch.home, scratch.npmCache) },
      cwd: scratch.files,
    },
    package: pkg.identifier,
    version,
    secrets,
    args: args.args,
    env,
  };
}

/** How a record's package is run: in the sandbox, or, at an operator's explicit request, unsandboxed with npx in the
 *  scratch folders. */
export type Runner = { sandbox: InspectionConfig } | { unsandboxed: Scratch; npmRegistry: string };

/** The sandbox's own places, as planFor hands them to the package (a required path is its working folder). */
const SANDBOX_SCRATCH: Scratch = { home: INSIDE.home, npmCache: `${INSIDE.home}/.npm`, files: INSIDE.files };

/** Runs the plan: in the sandbox, the package fetched first (its license read from its own package.json). */
async function run(
  plan: Extract<Plan, { spec: CommandSpec }>,
  runner: Runner,
  limits: RunLimits,
): Promise<{ result: Awaited<ReturnType<typeof inspectCommand>>; license?: string; unfetched?: boolean }> {
  if ('unsandboxed' in runner) {
    const license = await npmLicense(plan.package, plan.version).catch(() => undefined);
    const spec = { ...plan.spec, env: { ...plan.spec.env, npm_config_registry: runner.npmRegistry } };
    return { result: await inspectCommand(spec, limits), license };
  }
  let fetched;
  try {
    fetched = await fetchPackage(plan.package, plan.version, runner.sandbox);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { result: { ok: false, reason, junkLines: 0 }, unfetched: true };
  }
  try {
    const { spec } = sandboxed(fetched.dir, [...fetched.command, ...plan.args], plan.env, runner.sandbox);
    return { result: await inspectCommand(spec, limits), license: fetched.license };
  } finally {
    rmSync(fetched.dir, { recursive: true, force: true });
  }
}

/** How one record is inspected: its package run by `runner` within `limits`, or, with no package to run, its remote
 *  asked through the SSRF guard with the operator's `outbound` settings (remote.ts). */
export interface RecordInspection {
  runner: Runner;
  outbound: GuardOptions;
  limits?: RunLimits;
  today?: string;
}

export async function inspectRecord(
  doc: ServerJson,
  { runner, outbound, limits = DEFAULT_LIMITS, today = new Date().toISOString().slice(0, 10) }: RecordInspection,
): Promise<McpInspection> {
  const plan = planFor(doc, 'unsandboxed' in runner ? runner.unsandboxed : SANDBOX_SCRATCH);
  if ('skip' in plan && !plan.package) {
    const remote = await inspectRemote(doc, outbound, outbound.timeoutMs, today);
    if (remote) return remote;
  }
  if ('skip' in plan) {
    // The license is the package's own word, asked of the registry whether or not the server runs here.
    const declared =
      plan.package && plan.version ? await npmLicense(plan.package, plan.version).catch(() => undefined) : undefined;
    const license = declared ? { license: declared } : {};
    return {
      status: 'not-inspected',
      reason: plan.skip,
      checkedAt: today,
      ...(plan.package ? { package: plan.package } : {}),
      ...(plan.version ? { version: plan.version } : {}),
      ...license,
    };
  }
  const { result: r, license: declared, unfetched } = await run(plan, runner, limits);
  const license = declared ? { license: declared } : {};
  if (!r.ok) {
    const reason = unfetched
      ? r.reason
      : plan.secrets.length
        ? `needs credentials (${plan.secrets.join(', ')}); without them ${r.reason}`
        : `it did not answer over MCP: ${r.reason}`;
    return {
      status: 'not-inspected',
      reason: reason.slice(0, 600),
      checkedAt: today,
      package: plan.package,
      version: plan.version,
      ...license,
    };
  }
  return {
    status: 'inspected',
    package: plan.package,
    version: plan.version,
    inspectedAt: today,
    ...license,
    serverInfo: r.serverInfo,
    ...(r.instructions ? { instructions: r.instructions } : {}),
    tools: r.tools,
    prompts: r.prompts,
    resources: r.resources,
  };
}

/** A run that could not inspect a package version inspected before (a local service it needs was not running, the
 *  network failed) keeps the earlier answer: the same version offers the same tools. A new version replaces it. */
export function keptOrFresh(previous: McpInspection | undefined, fresh: McpInspection): McpInspection {
  const sameVersion =
    previous?.status === 'inspected' &&
    previous.package === fresh.package &&
    previous.remote?.url === fresh.remote?.url &&
    previous.version === fresh.version;
  return fresh.status === 'not-inspected' && sameVersion ? previous : fresh;
}

/** Fills in the license of each inspection whose package and version are known, without running any server. */
export async function writeLicenses(
  opts: { log?: (line: string) => void; file?: string } = {},
): Promise<InspectionsFile> {
  const file = opts.file ?? INSPECTIONS_FILE;
  const data = readInspectionsFile(file);
  for (const [slug, inspection] of Object.entries(data.servers)) {
    if (!inspection.package || !inspection.version) continue;
    const license = await npmLicense(inspection.package, inspection.version).catch(() => undefined);
    opts.log?.(`${slug}: ${license ?? 'no license declared'}`);
    data.servers[slug] = { ...inspection, ...(license ? { license } : {}) };
  }
  writeFileSync(file, `${JSON.stringify({ about: ABOUT, servers: data.servers }, null, 2)}\n`);
  return data;
}

/** A line for the operator: what the inspection found, or why not. */
export function inspectionLine(slug: string, inspection: McpInspection): string {
  return `${slug}: ${inspection.status === 'inspected' ? `${inspection.tools.length} tools, ${inspection.prompts.length} prompts, ${inspection.resources.length} resources` : `not inspected: ${inspection.reason}`}`;
}

/** Writes a run's inspection of the tool `slug` (a package's or a remote's), in one transaction: the earlier one kept
 *  when this run could not inspect the same version (keptOrFresh), the table the page reads (a public write: the
 *  data version moves when it changed), a snapshot of its version (a change within one is flagged for the
 *  moderators) and, when it changed and an `actor` is given, the audit row. The seed leaves a run's inspection alone
 *  from then on (seedInspections). Returns what was written. */
export async function writeInspection(
  db: DB,
  slug: string,
  fresh: McpInspection,
  opts: { actor?: string; now?: Date } = {},
): Promise<McpInspection> {
  return inTransaction(db, async (trx) => {
    const written = keptOrFresh((await getInspection(trx, slug)) ?? undefined, fresh);
    const changed = await upsertPublic(
      trx,
      'mcp_inspections',
      { tool_slug: slug, doc: JSON.stringify(written), source: 'run' },
      {
        key: 'tool_slug',
        replaceWhen: (eb) =>
          eb.or([
            eb('mcp_inspections.doc', '<>', eb.ref('excluded.doc')),
            eb('mcp_inspections.source', '<>', eb.ref('excluded.source')),
          ]),
      },
    );
    await recordSnapshot(trx, slug, written, opts.now);
    if (changed && opts.actor)
      await writeAudit(trx, {
        actor: opts.actor,
        action: 'inspection.update',
        target: `server ${slug}`,
        summary: inspectionLine(slug, written),
      });
    return written;
  });
}

/** The records to inspect, by tool slug, from the database (the source of truth, imported servers included). */
async function recordsOf(db: DB, slugs: string[] | 'all'): Promise<[string, ServerJson][]> {
  let q = db.selectFrom('mcp_servers').select(['tool_slug', 'doc']).orderBy('tool_slug');
  if (slugs !== 'all') q = q.where('tool_slug', 'in', slugs.length ? slugs : ['']);
  const rows = await q.execute();
  const found = new Set(rows.map((r) => r.tool_slug));
  for (const slug of slugs === 'all' ? [] : slugs)
    if (!found.has(slug)) throw new Error(`No MCP server record for ${slug}`);
  return rows.map((r) => [r.tool_slug, JSON.parse(r.doc) as ServerJson]);
}

export interface InspectOptions {
  /** The sandbox's settings (loadConfig().inspection by default); its time and output limits bound each run. */
  settings?: InspectionConfig;
  /** The SSRF guard's settings for a record asked over its remote (loadConfig().outbound by default). */
  outbound?: GuardOptions;
  /** Who the audit row of a changed inspection names (`job:inspect`, `cli:<user>`). */
  actor?: string;
  /** The inspect job's run: remote servers are left to the `inspect-remotes` job (one job asks remotes). */
  packagesOnly?: boolean;
  /** An operator's explicit choice at the terminal: run with npx as their own user, without the sandbox. */
  unsandboxed?: boolean;
  log?: (line: string) => void;
  /** Also writes the results to this seed file (data/mcp-inspections.json), for a commit of the shipped data. */
  file?: string;
}

/** Why inspections cannot run unattended here (bubblewrap cannot run a sandbox), or null. */
export async function inspectionRefusal(settings: InspectionConfig = inspectionConfig()): Promise<string | null> {
  const reason = await sandboxUnavailable(settings);
  return reason && `Inspection refused: packages run only inside a bubblewrap sandbox, and ${reason}.`;
}

/** Inspects the given records one at a time (two cores are shared), writing each result as it comes. */
export async function inspectAndWrite(
  db: DB,
  slugs: string[] | 'all',
  opts: InspectOptions = {},
): Promise<InspectionsFile> {
  const settings = opts.settings ?? inspectionConfig();
  const outbound = opts.outbound ?? outboundConfig();
  const refusal = opts.unsandboxed ? null : await inspectionRefusal(settings);
  if (refusal) throw new Error(refusal);
  const limits: RunLimits = { ...DEFAULT_LIMITS, timeoutMs: settings.timeoutMs, maxStdoutBytes: settings.outputBytes };
  const records = await recordsOf(db, slugs);
  const root = mkdtempSync(join(tmpdir(), 'mcp-inspect-'));
  const scratch: Scratch = { home: join(root, 'home'), npmCache: join(root, 'npm-cache'), files: join(root, 'files') };
  for (const dir of Object.values(scratch)) mkdirSync(dir, { recursive: true });
  const runner: Runner = opts.unsandboxed
    ? { unsandboxed: scratch, npmRegistry: settings.npmRegistry }
    : { sandbox: settings };
  const data: InspectionsFile = opts.file ? readInspectionsFile(opts.file) : { about: ABOUT, servers: {} };
  try {
    for (const [slug, doc] of records) {
      if (opts.packagesOnly && isRemoteServer(doc)) {
        opts.log?.(`${slug}: a remote server, left to the inspect-remotes job`);
        continue;
      }
      const fresh = await inspectRecord(doc, { runner, outbound, limits });
      const result = await writeInspection(db, slug, fresh, { actor: opts.actor });
      const kept =
        result !== fresh && fresh.status === 'not-inspected'
          ? ` (kept the earlier inspection; this run: ${fresh.reason})`
          : '';
      opts.log?.(`${inspectionLine(slug, result)}${kept}`);
      data.servers[slug] = result;
      if (opts.file) writeSeedFile(opts.file, data);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return data;
}

/** The seed file, in the seed records' order so it diffs well. */
function writeSeedFile(file: string, data: InspectionsFile): void {
  const order = Object.keys(JSON.parse(readFileSync(SERVERS_FILE, 'utf8')) as Record<string, unknown>);
  const ordered = Object.fromEntries(
    [...order, ...Object.keys(data.servers).filter((s) => !order.includes(s))].flatMap((s) =>
      data.servers[s] ? [[s, data.servers[s]!]] : [],
    ),
  );
  writeFileSync(file, `${JSON.stringify({ about: ABOUT, servers: ordered }, null, 2)}\n`);
}
