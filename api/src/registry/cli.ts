/**
 * Operator CLI for the MCP registry format (same database as the server; DATABASE_PATH overrides it):
 *   pnpm registry import <file-or-folder>
 *   pnpm registry versions                 (seed records' versions and names from npm; see versions.ts)
 *   pnpm registry inspect <slug|--all> [--timeout <seconds>]   (what each server offers; see inspect.ts)
 *   pnpm registry licenses                 (each inspected package's declared license, without running it)
 *   pnpm registry inspect --remotes [slug...]   (remote servers over their transport, into the database; remote.ts)
 *   pnpm registry health [slug...]         (a health check of each remote server, into the database; checks/health.ts)
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../config';
import { cliActor } from '../content/audit';
import { openDatabase } from '../db/connection';
import { formatSummary, importServers } from './import';
import { writeRefreshedVersions } from './versions';
import { inspectAndWrite, writeLicenses } from './inspect';
import { DEFAULT_LIMITS } from './inspector';
import { inspectRemotes } from './remoteInspections';
import { runHealthChecks } from './health';

const USAGE = `Usage:
  pnpm registry import <server.json file, folder of them, or a saved /v0.1/servers answer>
  pnpm registry versions
  pnpm registry inspect <slug...|--all> [--timeout <seconds>]
  pnpm registry inspect --remotes [slug...]
  pnpm registry health [slug...]
  pnpm registry licenses`;

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
  const at = args.indexOf('--timeout');
  const seconds = at >= 0 ? Number(args[at + 1]) : DEFAULT_LIMITS.timeoutMs / 1000;
  const targets = args.filter((_, i) => at < 0 || (i !== at && i !== at + 1));
  if (!targets.length || !Number.isFinite(seconds) || seconds <= 0) {
    console.error(USAGE);
    return 2;
  }
  const data = await inspectAndWrite(targets.includes('--all') ? 'all' : targets, {
    limits: { ...DEFAULT_LIMITS, timeoutMs: seconds * 1000 },
    log: (line) => console.log(line),
  });
  const inspected = Object.values(data.servers).filter((s) => s.status === 'inspected').length;
  console.log(
    `${inspected} of ${Object.keys(data.servers).length} servers inspected. Written: api/data/mcp-inspections.json (loaded by the seed step).`,
  );
  return 0;
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

async function main(argv: string[]): Promise<number> {
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

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  // An operator's mistake (an unknown slug) or the registry's refusal: its message, not a stack trace.
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
}
