/**
 * `pnpm registry versions`: brings each seeded record's version (and name) in line with what its npm package
 * publishes. The version is the package's current release; the name is the package's `mcpName`, the name the
 * official registry checks a package against. Every npm package also gets its own `version`, the exact release
 * the registry reads that `mcpName` from (it refuses a package without one, "latest" or a range; docs/mcp.md).
 * PyPI and image registries cannot be reached from where the data is written: a record packaged only there keeps
 * the version mcp-versions.json sources for it (a release tag in the project's repository, or a stored registry
 * page, read on the day it names), and the command lists those records as not checked by this run. Remote-only
 * records have no package and no version. Edits to mcp-servers.json are line-local: other fields and their layout
 * stay as they are.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import { DATA_DIR } from '../paths';
import type { ServerJson } from '@aitools/contracts/mcp';

export interface NpmFacts {
  version: string;
  mcpName?: string;
  /** When that version was published (the registry's `time` entry). */
  published?: string;
}

export type VersionSource =
  | (CheckedVersions & { source: 'npm'; package: string; published?: string; mcpName?: string })
  | RepositorySource
  | RegistryPageSource
  | { source: 'none'; reason: string };

/** What every checked source records: the record's version and its packages'. */
interface CheckedVersions {
  /** The record's version. */
  version: string;
  /** Each versioned package's version as written in the record (an npm or PyPI release, an image tag), by identifier. */
  packageVersions: Record<string, string>;
  /** The record's packages left without a version, by identifier, and why. */
  unversioned?: Record<string, string>;
}

/** Versions read from the project's own repository (a snapshot of it), because its package registry was out of
 *  reach: the release tag's package metadata names the release its publishing workflow uploaded. */
export interface RepositorySource extends CheckedVersions {
  source: 'repository';
  repository: string;
  /** The release tag, where the project tags its releases. */
  tag?: string;
  commit: string;
  committed: string;
  /** What the version was read from at that commit. */
  read: string;
  /** The day the repository was read. */
  seen: string;
  note: string;
}

/** A version read from a stored copy of a page that reports the package registry's own data. */
export interface RegistryPageSource extends CheckedVersions {
  source: 'registry-page';
  url: string;
  /** What the page shows, as quoted. */
  shows: string;
  /** The day the stored page was read (the page itself carries no date). */
  seen: string;
  note: string;
}

/** A source that `pnpm registry versions` cannot check from here and keeps as it was written. */
export type KeptSource = RepositorySource | RegistryPageSource;
export const isKeptSource = (s: VersionSource | undefined): s is KeptSource =>
  s?.source === 'repository' || s?.source === 'registry-page';

export interface VersionsFile {
  about: string;
  checkedAt: string;
  /** Former record names (before taking a package's mcpName) -> current ones; /v0.1 redirects the old ones. */
  renamed: Record<string, string>;
  servers: Record<string, VersionSource>;
}

export const VERSIONS_FILE = join(DATA_DIR, 'mcp-versions.json');
export const SERVERS_FILE = join(DATA_DIR, 'mcp-servers.json');
const ABOUT =
  'Where each version in mcp-servers.json comes from: npm sources were checked on checkedAt by `pnpm registry versions` (npm view <package> version mcpName time); repository and registry-page sources were read on their own `seen` day, because PyPI and the image registries cannot be reached from where the data is written, and the command keeps them as written.';

const run = promisify(execFile);

/** Asks the npm registry through the npm client (its configuration, proxy and cache). */
export async function npmView(pkg: string): Promise<NpmFacts> {
  const { stdout } = await run('npm', ['view', pkg, 'version', 'mcpName', 'time', '--json'], {
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const facts = JSON.parse(stdout) as { version?: string; mcpName?: string; time?: Record<string, string> };
  if (typeof facts.version !== 'string') throw new Error(`npm view ${pkg}: no version in the answer`);
  return {
    version: facts.version,
    mcpName: typeof facts.mcpName === 'string' ? facts.mcpName : undefined,
    published: facts.time?.[facts.version],
  };
}

/** The `license` a package version's own metadata declares, as written (an old object form gives its type). */
export async function npmLicense(pkg: string, version: string): Promise<string | undefined> {
  const { stdout } = await run('npm', ['view', `${pkg}@${version}`, 'license', '--json'], { timeout: 60_000 });
  const license = stdout.trim() ? (JSON.parse(stdout) as unknown) : undefined;
  if (typeof license === 'string') return license;
  const type = (license as { type?: unknown } | undefined)?.type;
  return typeof type === 'string' ? type : undefined;
}

/** The record's first npm package: the one whose release the record's version follows. */
export const npmPackageOf = (doc: ServerJson) => doc.packages?.find((p) => p.registryType === 'npm');

// The official registry's test for a version that names a range rather than one release (docs/mcp.md).
const COMPARATOR_RANGE = /^\s*(?:\^|~|>=|<=|>|<|=)\s*v?\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.-]+)?\s*$/;
const HYPHEN_RANGE = /^\s*v?\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.-]+)?\s-\s*v?\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.-]+)?\s*$/;
const OR_RANGE =
  /^\s*(?:v?\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.-]+)?\s*)(?:\|\|\s*v?\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.-]+)?\s*)+$/;
const DOTTED_VERSION_LIKE = /^\s*(?:v?\d+|x|X|\*)(?:\.(?:\d+|x|X|\*)){1,2}(?:-[0-9A-Za-z.-]+)?\s*$/;

/** Why the official registry would refuse this as a record's or a package's version, or undefined if it accepts it. */
export function versionRefusal(version: string | undefined): string | undefined {
  if (!version) return 'no version';
  if (version.length > 255) return 'longer than 255 characters';
  if (version === 'latest') return '"latest" is reserved';
  const trimmed = version.trim();
  if (COMPARATOR_RANGE.test(trimmed) || HYPHEN_RANGE.test(trimmed) || OR_RANGE.test(trimmed))
    return `"${version}" is a range`;
  if (DOTTED_VERSION_LIKE.test(trimmed) && /[xX*]/.test(trimmed)) return `"${version}" is a range`;
  return undefined;
}

const registryKinds = (doc: ServerJson) => [...new Set((doc.packages ?? []).map((p) => p.registryType))].join(' and ');

/** Describes a record without an npm package: why no version could be checked here. */
function noneReason(doc: ServerJson): string {
  if (!doc.packages?.length) return 'Remote only: no package to take a version from';
  return `Packaged on ${registryKinds(doc)} only, which cannot be reached from where the data is written: version not checked`;
}

/** Sets a top-level field of one record in the file's text, touching only that line (or adding one after the
 *  description). The file keeps its two-space layout: records at depth 1, their fields at depth 2. */
export function setRecordField(text: string, slug: string, field: 'name' | 'version', value: string): string {
  const start = text.indexOf(`\n  ${JSON.stringify(slug)}: {\n`);
  if (start < 0) throw new Error(`mcp-servers.json: no record ${slug}`);
  const end = text.indexOf('\n  }', start);
  const block = text.slice(start, end);
  const line = new RegExp(`\\n    "${field}": "(?:[^"\\\\]|\\\\.)*"`);
  const replacement = `\n    "${field}": ${JSON.stringify(value)}`;
  let updated: string;
  if (line.test(block)) updated = block.replace(line, replacement);
  else {
    const description = /\n {4}"description": "(?:[^"\\]|\\.)*",?/.exec(block);
    if (!description) throw new Error(`mcp-servers.json ${slug}: no description line to put the ${field} after`);
    const at = description.index + description[0].length;
    const comma = description[0].endsWith(',') ? '' : ',';
    updated = `${block.slice(0, at)}${comma}${replacement}${comma ? '' : ','}${block.slice(at)}`;
  }
  return text.slice(0, start) + updated + text.slice(end);
}

/** Sets the `version` of one of a record's packages (named by its identifier) in the file's text: the line after
 *  its `identifier` line is replaced if it is the version, otherwise a version line is put there. Packages sit at
 *  depth 4 (eight spaces). */
export function setPackageVersion(text: string, slug: string, identifier: string, version: string): string {
  const start = text.indexOf(`\n  ${JSON.stringify(slug)}: {\n`);
  if (start < 0) throw new Error(`mcp-servers.json: no record ${slug}`);
  const end = text.indexOf('\n  }', start);
  const block = text.slice(start, end);
  const idLine = `\n        "identifier": ${JSON.stringify(identifier)}`;
  const at = block.indexOf(idLine);
  if (at < 0) throw new Error(`mcp-servers.json ${slug}: no package line for ${identifier}`);
  const afterId = at + idLine.length;
  const versionLine = `\n        "version": ${JSON.stringify(version)}`;
  const existing = /^,?\n {8}"version": "(?:[^"\\]|\\.)*"/.exec(block.slice(afterId));
  let updated: string;
  if (existing) {
    const comma = existing[0].startsWith(',') ? ',' : '';
    updated = block.slice(0, afterId) + comma + versionLine + block.slice(afterId + existing[0].length);
  } else updated = `${block.slice(0, afterId)},${versionLine}${block.slice(afterId)}`;
  return text.slice(0, start) + updated + text.slice(end);
}

export interface RefreshResult {
  text: string;
  versions: VersionsFile;
  changes: string[];
  /** Records this run could not check from here, each with what it kept (or why it has no version). */
  notChecked: string[];
}

/** A kept source must still describe the record as written: its version and every package's version or the reason
 *  it has none. Otherwise the record was edited by hand and its version no longer has a recorded source. */
function keptSourceMismatch(doc: ServerJson, kept: KeptSource): string | undefined {
  if (doc.version !== kept.version) return `version ${doc.version ?? '(none)'} is not the recorded ${kept.version}`;
  for (const pkg of doc.packages ?? []) {
    const recorded = kept.packageVersions[pkg.identifier];
    if (pkg.version !== recorded)
      return `package ${pkg.identifier} version ${pkg.version ?? '(none)'} is not the recorded ${recorded ?? '(none)'}`;
    if (!pkg.version && !kept.unversioned?.[pkg.identifier])
      return `package ${pkg.identifier} has no version and no recorded reason`;
  }
  return undefined;
}

function describeKept(kept: KeptSource): string {
  const from =
    kept.source === 'repository'
      ? `${kept.repository}${kept.tag ? ` tag ${kept.tag}` : ''} (commit ${kept.commit.slice(0, 12)}, ${kept.committed.slice(0, 10)})`
      : kept.url;
  return `kept ${kept.version} from ${from}, read ${kept.seen}`;
}

/** Works out the new file contents from the current ones and the registry's answers (`view`); writes nothing. */
export async function refreshVersions(opts: {
  serversText: string;
  previous?: VersionsFile;
  view?: (pkg: string) => Promise<NpmFacts>;
  today: string;
}): Promise<RefreshResult> {
  const view = opts.view ?? npmView;
  const records = JSON.parse(opts.serversText) as Record<string, ServerJson>;
  const versions: VersionsFile = {
    about: ABOUT,
    checkedAt: opts.today,
    renamed: { ...opts.previous?.renamed },
    servers: {},
  };
  const changes: string[] = [];
  const notChecked: string[] = [];
  let text = opts.serversText;
  const expected: Record<string, ServerJson> = structuredClone(records);
  for (const [slug, doc] of Object.entries(records)) {
    const pkg = npmPackageOf(doc);
    if (!pkg) {
      const kept = opts.previous?.servers[slug];
      if (doc.packages?.length && isKeptSource(kept)) {
        const mismatch = keptSourceMismatch(doc, kept);
        if (mismatch) throw new Error(`mcp-servers.json ${slug}: ${mismatch} in mcp-versions.json`);
        versions.servers[slug] = kept;
        notChecked.push(`${slug} (${registryKinds(doc)}): ${describeKept(kept)}`);
        continue;
      }
      // Every version written must have its source recorded: one without is not kept silently.
      if (doc.version || doc.packages?.some((p) => p.version))
        throw new Error(`mcp-servers.json ${slug}: has a version that mcp-versions.json records no source for`);
      versions.servers[slug] = { source: 'none', reason: noneReason(doc) };
      if (doc.packages?.length) notChecked.push(`${slug} (${registryKinds(doc)}): no recorded version`);
      continue;
    }
    const facts = await view(pkg.identifier);
    // Each npm package is written at its current release: the one the registry reads its mcpName from.
    const packageVersions: Record<string, string> = {};
    const unversioned: Record<string, string> = {};
    for (const [index, each] of (doc.packages ?? []).entries()) {
      if (each.registryType !== 'npm') {
        if (each.version)
          throw new Error(`mcp-servers.json ${slug}: package ${each.identifier} has a version no source records`);
        unversioned[each.identifier] =
          `${each.registryType} cannot be reached from where the data is written: no version checked, so it stays unpinned`;
        continue;
      }
      const release = each === pkg ? facts.version : (await view(each.identifier)).version;
      const refusal = versionRefusal(release);
      if (refusal) throw new Error(`npm view ${each.identifier}: the registry would refuse its version: ${refusal}`);
      packageVersions[each.identifier] = release;
      if (each.version !== release) {
        text = setPackageVersion(text, slug, each.identifier, release);
        changes.push(`${slug}: package ${each.identifier} version ${each.version ?? '(none)'} -> ${release}`);
        expected[slug]!.packages![index]!.version = release;
      }
    }
    versions.servers[slug] = {
      source: 'npm',
      package: pkg.identifier,
      version: facts.version,
      ...(facts.published ? { published: facts.published } : {}),
      ...(facts.mcpName ? { mcpName: facts.mcpName } : {}),
      packageVersions,
      ...(Object.keys(unversioned).length ? { unversioned } : {}),
    };
    if (doc.version !== facts.version) {
      text = setRecordField(text, slug, 'version', facts.version);
      changes.push(`${slug}: version ${doc.version ?? '(none)'} -> ${facts.version}`);
      expected[slug]!.version = facts.version;
    }
    if (facts.mcpName && facts.mcpName !== doc.name) {
      text = setRecordField(text, slug, 'name', facts.mcpName);
      changes.push(`${slug}: name ${doc.name} -> ${facts.mcpName}`);
      versions.renamed[doc.name] = facts.mcpName;
      expected[slug]!.name = facts.mcpName;
    }
  }
  // A name that came back to an earlier one is no longer a redirect.
  for (const [from, to] of Object.entries(versions.renamed))
    if (Object.values(expected).some((d) => d.name === from) || from === to) delete versions.renamed[from];
  // The text edits must have changed exactly the intended fields.
  const reparsed = JSON.parse(text) as Record<string, ServerJson>;
  for (const slug of Object.keys(expected))
    if (!isDeepStrictEqual(reparsed[slug], expected[slug]))
      throw new Error(`mcp-servers.json ${slug}: the edit changed more than its versions and name`);
  return { text, versions, changes, notChecked };
}

export function readVersionsFile(file = VERSIONS_FILE): VersionsFile | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as VersionsFile;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export async function writeRefreshedVersions(
  today = new Date().toISOString().slice(0, 10),
): Promise<Pick<RefreshResult, 'changes' | 'notChecked'>> {
  const result = await refreshVersions({
    serversText: readFileSync(SERVERS_FILE, 'utf8'),
    previous: readVersionsFile(),
    today,
  });
  writeFileSync(SERVERS_FILE, result.text);
  writeFileSync(VERSIONS_FILE, `${JSON.stringify(result.versions, null, 2)}\n`);
  return { changes: result.changes, notChecked: result.notChecked };
}
