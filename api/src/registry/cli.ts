/**
 * Operator CLI for the MCP registry format (same database as the server; DATABASE_PATH overrides it):
 *   pnpm registry import <file-or-folder>
 *   pnpm registry versions                 (seed records' versions and names from npm; see versions.ts)
 *   pnpm registry inspect <slug|--all> [--timeout <seconds>] [--seed-file] [--unsandboxed]
 *                                          (what each server offers, in the sandbox, into the database; inspect.ts)
 *   pnpm registry licenses                 (each inspected package's declared license, without running it)
 *   pnpm registry inspect --remotes [slug...]   (remote servers over their transport, into the database; remote.ts)
 *   pnpm registry health [slug...]         (a health check of each remote server, into the database; checks/health.ts)
 * `pnpm registry sync` is added by moderation/registryCli.ts (the entry `pnpm registry` runs), as listing a new
 * server is the moderators' approval, a floor above this one.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../config';
import { cliActor } from '../content/audit';
import { openDatabase } from '../db/connection';
import { formatSummary, importServers } from './import';
import { writeRefreshedVersions } from './versions';
import { inspectAndWrite, writeLicenses } from './inspect';
import { INSPECTIONS_FILE } from '../inspectionsFile';
import { inspectRemotes } from './remoteInspections';
import { runHealthChecks } from './health';

const USAGE = `Usage:
  pnpm registry import <server.json file, folder of them, or a saved /v0.1/servers answer>
  pnpm registry versions
  pnpm registry inspect <slug...|--all> [--timeout <seconds>] [--seed-file] [--unsandboxed]
  pnpm registry inspect --remotes [slug...]
  pnpm registry health [slug...]
  pnpm registry licenses
  pnpm registry sync [upstream id or address]`;

async function importCommand(target: string | undefined): Promise<number> {
  if (!target) {
    console.error(USAGE);
    return 2;
  }
  // pnpm runs the script in api/; a relative path means relative to where the operator typed the command.
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), target);
  if (!existsSync(path)) {
    console.error(`No such file or folder: ${path}`);
    return 2;
  }
  const db = await openDatabase(loadConfig().database);
  try {
    const summary = await importServers(db, path);
    console.log(formatSummary(summary));
    if (summary.added.length) console.log('Review new servers with: pnpm moderate list');
    return 0;
  } finally {
    await db.destroy();
  }
}

async function versionsCommand(): Promise<number> {
  const { changes, notChecked } = await writeRefreshedVersions();
  console.log(changes.length ? changes.join('\n') : 'Every npm version and name is current.');
  if (notChecked.length)
    console.log(
      `Not checked from here (their package registries are out of reach; update them by hand with their source in api/data/mcp-versions.json):\n${notChecked.map((line) => `  ${line}`).join('\n')}`,
    );
  console.log(
    'Written: api/data/mcp-servers.json, api/data/mcp-versions.json. Restart the server (or run the seed) to load them.',
  );
  return 0;
}

async function inspectCommand(args: string[]): Promise<number> {
  const config = loadConfig();
  const at = args.indexOf('--timeout');
  const seconds = at >= 0 ? Number(args[at + 1]) : config.inspection.timeoutMs / 1000;
  const flags = new Set(args.filter((a, i) => a.startsWith('--') && i !== at));
  const targets = args.filter((a, i) => !a.startsWith('--') && (at < 0 || i !== at + 1));
  const known = ['--all', '--seed-file', '--unsandboxed'];
  if (
    (!targets.length && !flags.has('--all')) ||
    [...flags].some((f) => !known.includes(f)) ||
    !Number.isFinite(seconds) ||
    seconds <= 0
  ) {
    console.error(USAGE);
    return 2;
  }
  const db = await openDatabase(config.database);
  try {
    const data = await inspectAndWrite(db, flags.has('--all') ? 'all' : targets, {
      settings: { ...config.inspection, timeoutMs: seconds * 1000 },
      outbound: config.outbound,
      actor: cliActor(),
      unsandboxed: flags.has('--unsandboxed'),
      log: (line) => console.log(line),
      ...(flags.has('--seed-file') ? { file: INSPECTIONS_FILE } : {}),
    });
    const inspected = Object.values(data.servers).filter((s) => s.status === 'inspected').length;
    console.log(
      `${inspected} of ${Object.keys(data.servers).length} servers inspected. Written to the database${flags.has('--seed-file') ? ' and api/data/mcp-inspections.json' : ''}.`,
    );
    return 0;
  } finally {
    await db.destroy();
  }
}

/** Remote inspections and health checks write to the database the site reads (no restart, no file). */
async function remoteCommand(kind: 'inspect' | 'health', slugs: string[]): Promise<number> {
  const config = loadConfig();
  const db = await openDatabase(config.database);
  try {
    const only = slugs.length ? { slugs } : {};
    const lines =
      kind === 'inspect'
        ? await inspectRemotes(db, config.outbound, { ...only, actor: cliActor() })
        : await runHealthChecks(db, config.outbound, only);
    console.log(lines.length ? lines.join('\n') : 'No remote server to check.');
    return 0;
  } finally {
    await db.destroy();
  }
}

export async function registryCommand(argv: string[]): Promise<number> {
  const [command, target] = argv;
  if (command === 'import') return importCommand(target);
  if (command === 'versions') return versionsCommand();
  if (command === 'inspect' && argv[1] === '--remotes') return remoteCommand('inspect', argv.slice(2));
  if (command === 'inspect') return inspectCommand(argv.slice(1));
  if (command === 'health') return remoteCommand('health', argv.slice(1));
  if (command === 'licenses') {
    await writeLicenses({ log: (line) => console.log(line) });
    console.log('Written: api/data/mcp-inspections.json (loaded by the seed step).');
    return 0;
  }
  console.error(USAGE);
  return 2;
}

/** Runs a command and sets the exit status: an operator's mistake (an unknown slug) or the registry's refusal is its
 *  message, not a stack trace. */
export async function runCli(command: (argv: string[]) => Promise<number>): Promise<void> {
  try {
    process.exitCode = await command(process.argv.slice(2));
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  }
}

// Run directly (the tests do): the registry's own commands.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runCli(registryCommand);
