/**
 * `pnpm registry inspect <slug|--all>`: runs each seeded MCP server's npm package (npx -y <package>@<version>) with
 * the inspector and writes what it offers to data/mcp-inspections.json, which the seed step loads. A server that
 * cannot run here is written with the reason: no npm package, a value it needs that we cannot make up, or the
 * failure (with "needs credentials" where it declares required secrets).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpArgument, ServerJson } from '@aitools/contracts/mcp';
import type { McpInspection } from '@aitools/contracts/inspection';
import { DEFAULT_LIMITS, inspectCommand, minimalEnv, type CommandSpec, type RunLimits } from './inspector';
import { npmLicense, npmPackageOf, SERVERS_FILE } from './versions';
import { INSPECTIONS_FILE, readInspectionsFile, type InspectionsFile } from '../inspectionsFile';
import { outboundConfig } from '../config';
import { inspectRemote } from './remote';

const ABOUT =
  'What each MCP server offers, from running its npm package and asking it over MCP (pnpm registry inspect); loaded by the seed step.';

/** Throwaway places for one inspect command: the servers' HOME, the npm cache they share, a folder to hand out. */
export interface Scratch {
  home: string;
  npmCache: string;
  files: string;
}

export type Plan =
  | { spec: CommandSpec; package: string; version: string; secrets: string[] }
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
  return {
    spec: {
      command: 'npx',
      args: ['-y', `${pkg.identifier}@${version}`, ...args.args],
      env: minimalEnv(scratch.home, scratch.npmCache),
      cwd: scratch.files,
    },
    package: pkg.identifier,
    version,
    secrets,
  };
}

export async function inspectRecord(
  doc: ServerJson,
  scratch: Scratch,
  limits: RunLimits = DEFAULT_LIMITS,
  today = new Date().toISOString().slice(0, 10),
): Promise<McpInspection> {
  const plan = planFor(doc, scratch);
  // A server with no package to run is asked over its remote, when it has one (remote.ts).
  if ('skip' in plan && !plan.package) {
    const outbound = outboundConfig();
    const remote = await inspectRemote(doc, outbound, outbound.timeoutMs, today);
    if (remote) return remote;
  }
  // The license is the package's own word, asked of the registry whether or not the server runs here.
  const declared =
    plan.package && plan.version ? await npmLicense(plan.package, plan.version).catch(() => undefined) : undefined;
  const license = declared ? { license: declared } : {};
  if ('skip' in plan)
    return {
      status: 'not-inspected',
      reason: plan.skip,
      checkedAt: today,
      ...(plan.package ? { package: plan.package } : {}),
      ...(plan.version ? { version: plan.version } : {}),
      ...license,
    };
  const r = await inspectCommand(plan.spec, limits);
  if (!r.ok) {
    const reason = plan.secrets.length
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

/** Inspects the given records one at a time (two cores are shared), writing the file after each. */
export async function inspectAndWrite(
  slugs: string[] | 'all',
  opts: { limits?: RunLimits; log?: (line: string) => void; file?: string } = {},
): Promise<InspectionsFile> {
  const file = opts.file ?? INSPECTIONS_FILE;
  const records = JSON.parse(readFileSync(SERVERS_FILE, 'utf8')) as Record<string, ServerJson>;
  const chosen = slugs === 'all' ? Object.keys(records) : slugs;
  for (const slug of chosen) if (!records[slug]) throw new Error(`No MCP server record for ${slug}`);
  const root = mkdtempSync(join(tmpdir(), 'mcp-inspect-'));
  const scratch: Scratch = { home: join(root, 'home'), npmCache: join(root, 'npm-cache'), files: join(root, 'files') };
  for (const dir of Object.values(scratch)) mkdirSync(dir, { recursive: true });
  const data = readInspectionsFile(file);
  try {
    for (const slug of chosen) {
      const fresh = await inspectRecord(records[slug]!, scratch, opts.limits);
      const result = keptOrFresh(data.servers[slug], fresh);
      const kept =
        result !== fresh && fresh.status === 'not-inspected'
          ? ` (kept the earlier inspection; this run: ${fresh.reason})`
          : '';
      opts.log?.(
        `${slug}: ${result.status === 'inspected' ? `${result.tools.length} tools, ${result.prompts.length} prompts, ${result.resources.length} resources` : `not inspected: ${result.reason}`}${kept}`,
      );
      data.servers[slug] = result;
      // In the records' order, so the file diffs well.
      const ordered = Object.fromEntries(
        Object.keys(records).flatMap((s) => (data.servers[s] ? [[s, data.servers[s]!]] : [])),
      );
      writeFileSync(file, `${JSON.stringify({ about: ABOUT, servers: ordered }, null, 2)}\n`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return data;
}
