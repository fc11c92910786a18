import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerJson } from '@aitools/contracts/mcp';
import type { McpInspection } from '@aitools/contracts/inspection';
import { inspectionConfig, type InspectionConfig } from '../config';
import type { DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import { seed } from '../seed';
import { checksQueue } from '../checks/facts';
import { historyOf } from '../checks/history';
import { dataVersion } from '../content/dataVersion';
import { API_ROOT as API_DIR } from '../paths';
import { DEFAULT_GUARD } from '../http/ssrfGuard';
import { inspectAndWrite, inspectionRefusal, inspectRecord, writeInspection, type Runner } from './inspect';
import { readInspectionsFile } from '../inspectionsFile';
import { getInspection } from './inspections';
import { getServerByToolSlug, upsertServer } from './repository';
import { commandOf, sandboxed } from './sandbox';
import { packPackage, serveNpmRegistry, type LocalRegistry } from './testdata/npmRegistry';

type Inspected = Extract<McpInspection, { status: 'inspected' }>;
const SECRET = 'operator-secret-4f1c9a';
let root: string;
let registry: LocalRegistry;
let listener: Server;
let connections = 0;
let settings: InspectionConfig;
let runner: Runner;

/** The host's first address that is not loopback (what the sandbox would reach with a network). */
const outside =
  Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address ?? '192.0.2.1';

const record = (pkg: string, extra: Partial<NonNullable<ServerJson['packages']>[number]> = {}): ServerJson => ({
  name: `io.github.example/${pkg}`,
  description: 'A server for the sandbox tests.',
  version: '1.0.0',
  packages: [{ registryType: 'npm', identifier: pkg, version: '1.0.0', transport: { type: 'stdio' }, ...extra }],
});

/** The processes of sandbox users (uids from 1,000,000: sandbox.ts) still running. */
function sandboxProcesses(): string[] {
  const out: string[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
      // A zombie has ended (it waits for its new parent to read its exit) and holds nothing.
      if (uid >= 1_000_000 && !/^State:\s+Z/m.test(status)) out.push(pid);
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** Waits until the killed sandbox's processes have ended (the kernel kills its pid namespace as its init dies). */
async function noSandboxProcessesLeft(): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (sandboxProcesses().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(sandboxProcesses()).toEqual([]);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'sandbox-test-'));
  // The operator's secret: readable by anyone on the host, as a careless file would be.
  writeFileSync(join(root, 'secret.txt'), SECRET, { mode: 0o644 });
  listener = createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '0.0.0.0', resolve));
  const port = (listener.address() as { port: number }).port;
  registry = await serveNpmRegistry([
    packPackage('benign', root, { 'marker.json': { path: join(root, 'install-script-ran') } }),
    packPackage('hostile', root, {
      'targets.json': {
        files: [join(root, 'secret.txt'), join(API_DIR, 'package.json'), '/etc/shadow', '/proc/1/environ'],
        plant: join(root, 'planted'),
        port,
        outside,
      },
    }),
    // A command that leaves its package for a file of the host's.
    packPackage('benign', root, {
      'package.json': { name: 'sandbox-e2e-escape', version: '1.0.0', bin: `${'../'.repeat(16)}etc/passwd` },
    }),
  ]);
  settings = inspectionConfig({
    NPM_REGISTRY_URL: registry.url,
    INSPECT_TIMEOUT_SECONDS: '60',
    INSPECT_OUTPUT_BYTES: String(1024 * 1024),
    // Node reserves about 1.4 GB of address space before it allocates anything: this leaves it a few hundred MB.
    INSPECT_MEMORY_MB: '1792',
    INSPECT_FILES_MB: '32',
    INSPECT_CPU_SECONDS: '3',
  });
  runner = { sandbox: settings };
}, 60_000);

afterAll(async () => {
  await registry.close();
  await new Promise((resolve) => listener.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

describe('the inspection sandbox (bubblewrap, an unprivileged uid, kernel limits)', () => {
  it('fetches the package without its install scripts and reads its tools, with the declared environment', async () => {
    const doc = record('sandbox-e2e-weather', {
      environmentVariables: [{ name: 'WEATHER_UNITS', value: 'metric' }],
    });
    const r = (await inspectRecord(doc, {
      runner,
      outbound: DEFAULT_GUARD,
      limits: { timeoutMs: 60_000, maxStdoutBytes: 1 << 20, keptStderrBytes: 2048 },
    })) as Inspected;
    expect(r.status, JSON.stringify(r)).toBe('inspected');
    expect(r.tools.map((t) => t.name)).toEqual(['get_forecast', 'get_alerts']);
    expect(r.tools[0]!.description).toBe('Forecast for a city, in metric units.');
    expect(r.license).toBe('MIT');
    expect(registry.requests).toContain('/sandbox-e2e-weather');
    expect(existsSync(join(root, 'install-script-ran'))).toBe(false);
  }, 90_000);

  it('a hostile server gets nothing out: no secret, no file written, no socket, bounded processes, no environment', async () => {
    const r = (await inspectRecord(record('sandbox-e2e-hostile'), { runner, outbound: DEFAULT_GUARD })) as Inspected;
    expect(r.status, JSON.stringify(r)).toBe('inspected');
    const report = r.tools[0]!.description!;
    expect(report).not.toContain(SECRET);
    // The host's files are not in its file system at all.
    expect(report).toContain(`read ${join(root, 'secret.txt')}: ENOENT`);
    expect(report).toContain(`read ${join(API_DIR, 'package.json')}: ENOENT`);
    expect(report).toContain('read /etc/shadow: ENOENT');
    expect(report).toContain(`write ${join(root, 'planted')}: ENOENT`);
    expect(existsSync(join(root, 'planted'))).toBe(false);
    // Its environment is PATH and HOME, nothing of the operator's.
    expect(report).toMatch(/^env: HOME PATH( PWD)?$/m);
    // No network: its loopback is its own, and nothing else is routed.
    expect(report).toMatch(/connect 127\.0\.0\.1:\d+: ECONNREFUSED/);
    expect(report).toMatch(new RegExp(`connect ${outside.replace(/\./g, '\\.')}:\\d+: (ENETUNREACH|EHOSTUNREACH)`));
    expect(connections).toBe(0);
    // CPU time, memory and disk stop at their limits.
    // The soft and hard limits are one: the kernel kills it outright.
    expect(report).toContain('cpu burner: SIGKILL');
    const memory = Number(/memory held: (\d+) MB/.exec(report)?.[1]);
    expect(memory).toBeGreaterThan(0);
    expect(memory).toBeLessThan(settings.memoryMb - 1024);
    expect(report).toMatch(/disk: (ENOSPC|EFBIG)/);
    expect(Number(/disk written: (\d+) MB/.exec(report)?.[1])).toBeLessThanOrEqual(settings.filesMb);
    // Processes and threads of its uid stop at the limit (Node's own threads count too), though the site runs as root.
    const started = Number(/processes started: (\d+)/.exec(report)?.[1]);
    expect(started).toBeGreaterThan(0);
    expect(started).toBeLessThan(settings.processes);
    // The fork bomb went with the sandbox.
    await noSandboxProcessesLeft();
  }, 90_000);

  it('a server printing 100 MB is stopped at the output limit, with the reason', async () => {
    const doc = record('sandbox-e2e-hostile', { packageArguments: [{ type: 'positional', value: 'flood' }] });
    const r = await inspectRecord(doc, {
      runner,
      outbound: DEFAULT_GUARD,
      limits: { timeoutMs: 60_000, maxStdoutBytes: 1 << 20, keptStderrBytes: 2048 },
    });
    expect(r).toMatchObject({ status: 'not-inspected', reason: expect.stringMatching(/more than 1048576 bytes/) });
    await noSandboxProcessesLeft();
  }, 90_000);

  /** Runs a script in a sandbox whose package and Node runtime are small folders made in `parent`, through `wrap`
   *  (a command that starts it as the user the site runs as); answers what it printed, with the uid it was given. */
  async function runIn(parent: string, wrap: string[], asRoot?: boolean): Promise<{ out: string; uid: number }> {
    const pkg = join(parent, 'pkg');
    const runtime = join(parent, 'runtime');
    mkdirSync(join(runtime, 'bin'), { recursive: true });
    mkdirSync(pkg);
    for (const dir of [pkg, runtime, join(runtime, 'bin')]) chmodSync(dir, 0o755);
    writeFileSync(join(pkg, 'hello.sh'), 'echo package read\n');
    chmodSync(join(pkg, 'hello.sh'), 0o644);
    // The runtime's bin folder comes first on the sandbox's PATH.
    writeFileSync(join(runtime, 'bin', 'runtime-says'), '#!/bin/sh\necho runtime found\n');
    chmodSync(join(runtime, 'bin', 'runtime-says'), 0o755);
    const status = 'grep -E "^(Uid|Gid|Groups|Cap[A-Za-z]+|NoNewPrivs):" /proc/self/status';
    const script = `runtime-says && sh /pkg/hello.sh && ls /etc/*/ >/dev/null && touch $HOME/h /work/w /tmp/t && echo folders written && ${status}`;
    const { spec, uid } = sandboxed(pkg, ['sh', '-c', script], {}, settings, { node: runtime, root: asRoot });
    const [first, ...args] = [...wrap, spec.command, ...spec.args];
    const out = await new Promise<string>((resolve, reject) =>
      execFile(first!, args, { env: spec.env, cwd: spec.cwd }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
    );
    return { out, uid };
  }

  /** What the sandboxed script printed: it found its runtime and package, wrote its folders, as its uid alone. */
  function expectConfined({ out, uid }: { out: string; uid: number }): void {
    const lines = out.split('\n');
    expect(lines.slice(0, 3)).toEqual(['runtime found', 'package read', 'folders written']);
    expect(out).toContain(`Uid:\t${uid}\t${uid}\t${uid}\t${uid}\n`);
    expect(out).toContain(`Gid:\t${uid}\t${uid}\t${uid}\t${uid}\n`);
    expect(out).toMatch(/^Groups:\s*$/m);
    // Every capability set empty (the bounding set too: no program can give one back), and no new privileges.
    const caps = lines.filter((l) => l.startsWith('Cap'));
    expect(caps).toHaveLength(5);
    for (const line of caps) expect(line).toMatch(/^Cap\w+:\t0+$/);
    expect(out).toContain('NoNewPrivs:\t1');
  }

  it('as root, runs whatever the modes of the folders above the package and Node, as its uid with no capability', async () => {
    // A folder only root may enter, as a checkout's parent can be (a clone into a fresh mktemp -d).
    const closed = mkdtempSync(join(root, 'closed-'));
    chmodSync(closed, 0o700);
    expectConfined(await runIn(closed, []));
  }, 60_000);

  it('as a user allowed to change uid (not root), runs as its uid with no capability', async () => {
    const open = mkdtempSync(join(tmpdir(), 'sandbox-open-'));
    chmodSync(open, 0o755);
    try {
      // nobody, with only CAP_SETUID and CAP_SETGID (as systemd's AmbientCapabilities gives them).
      const user = ['--reuid=65534', '--regid=65534', '--clear-groups'];
      const caps = ['--inh-caps=+setuid,+setgid', '--ambient-caps=+setuid,+setgid'];
      expectConfined(await runIn(open, ['setpriv', ...user, ...caps, '--'], false));
    } finally {
      rmSync(open, { recursive: true, force: true });
    }
  }, 60_000);

  it('a package the registry does not have is not inspected, with npm`s reason, without the registry`s credentials', async () => {
    const withCredentials = { ...settings, npmRegistry: registry.url.replace('//', '//reader:s3cret-token@') };
    const r = await inspectRecord(record('sandbox-e2e-missing'), {
      runner: { sandbox: withCredentials },
      outbound: DEFAULT_GUARD,
    });
    expect(r).toMatchObject({
      status: 'not-inspected',
      reason: expect.stringMatching(/^it could not be fetched: .*404/),
    });
    expect(JSON.stringify(r)).not.toContain('s3cret-token');
  }, 90_000);
  it('a package whose command leaves its folder is not run, nor its command read, with the reason', async () => {
    const r = await inspectRecord(record('sandbox-e2e-escape'), { runner, outbound: DEFAULT_GUARD });
    expect(r).toMatchObject({
      status: 'not-inspected',
      reason: expect.stringMatching(/^its command \((\.\.\/)+etc\/passwd\) is outside its package$/),
    });
  }, 90_000);

  it('a command linked out of its package, or not a file, is refused; one linked within it runs', async () => {
    const installed = mkdtempSync(join(root, 'installed-'));
    const own = join(installed, 'node_modules', 'linked');
    mkdirSync(join(own, 'lib'), { recursive: true });
    writeFileSync(join(own, 'server.js'), '#!/usr/bin/env node\n');
    symlinkSync(join(root, 'secret.txt'), join(own, 'cli.js'));
    symlinkSync('server.js', join(own, 'alias'));
    await expect(commandOf(installed, 'linked', { bin: 'cli.js' })).rejects.toThrow(
      /^its command \(cli\.js\) is outside its package$/,
    );
    await expect(commandOf(installed, 'linked', { bin: 'lib' })).rejects.toThrow(/^its command \(lib\) is not a file$/);
    await expect(commandOf(installed, 'linked', { bin: 'missing.js' })).rejects.toThrow(/is not in its package$/);
    expect(await commandOf(installed, 'linked', { bin: { linked: 'alias' } })).toEqual([
      'node',
      '/pkg/node_modules/linked/server.js',
    ]);
  });
});

describe('inspections written to the database', () => {
  const SLUG = 'sequential-thinking-mcp-server';
  let db: DB;
  beforeAll(async () => {
    db = await openTestDatabase();
    await seed(db);
  }, 60_000);

  const declare = async (units: string) => {
    const doc = (await getServerByToolSlug(db, SLUG))!;
    await upsertServer(db, {
      doc: {
        ...doc,
        version: '1.0.0',
        packages: record('sandbox-e2e-weather', { environmentVariables: [{ name: 'WEATHER_UNITS', value: units }] })
          .packages,
      },
      toolSlug: SLUG,
      source: 'import',
    });
  };

  it('refuses to run unattended where bubblewrap cannot run, with the one reason', async () => {
    const broken = { ...settings, bwrap: '/nonexistent/bwrap' };
    expect(await inspectionRefusal(broken)).toBe(
      'Inspection refused: packages run only inside a bubblewrap sandbox, and bubblewrap is not installed (no /nonexistent/bwrap command).',
    );
    const before = await getInspection(db, SLUG);
    await expect(inspectAndWrite(db, [SLUG], { settings: broken })).rejects.toThrow(/Inspection refused/);
    expect(await getInspection(db, SLUG)).toEqual(before);
    expect(await inspectionRefusal(settings)).toBeNull();
  });

  it('writes the inspection (the data version moves), keeps a snapshot per version, flags a change within one', async () => {
    await declare('metric');
    const before = await dataVersion(db);
    const snapshots = (await historyOf(db, SLUG)).snapshots;
    await inspectAndWrite(db, [SLUG], { settings });
    const written = (await getInspection(db, SLUG)) as Inspected;
    expect(written.tools.map((t) => t.description)).toContain('Forecast for a city, in metric units.');
    expect(await dataVersion(db)).toBeGreaterThan(before);
    let history = await historyOf(db, SLUG);
    expect(history.snapshots).toBe(snapshots + 1);
    expect(history.rugPulls).toEqual([]);

    // The same version, other tools: a possible rug pull, in the moderators' queue.
    await declare('imperial');
    await inspectAndWrite(db, [SLUG], { settings });
    history = await historyOf(db, SLUG);
    expect(history.snapshots).toBe(snapshots + 2);
    expect(history.rugPulls).toMatchObject([{ version: '1.0.0' }]);
    expect(history.history?.changes).toMatchObject([{ name: 'get_forecast', change: 'changed' }]);
    expect((await checksQueue(db)).rugPulls).toMatchObject([{ slug: SLUG, version: '1.0.0' }]);

    // The seed leaves a run's inspection alone: the file is older.
    await seed(db);
    expect(((await getInspection(db, SLUG)) as Inspected).tools[0]!.description).toBe(
      'Forecast for a city, in imperial units.',
    );
    expect((await historyOf(db, SLUG)).snapshots).toBe(snapshots + 2);
  }, 180_000);

  it('the seed keeps a run`s inspection of a server its file does not name', async () => {
    const shipped = readInspectionsFile().servers;
    const other = (await db.selectFrom('tools').select('slug').orderBy('slug').execute()).find(
      (t) => !shipped[t.slug],
    )!.slug;
    const inspection: McpInspection = {
      status: 'not-inspected',
      reason: 'it did not answer over MCP: it exited (code 1) before answering',
      checkedAt: '2026-12-02',
    };
    await writeInspection(db, other, inspection);
    await seed(db);
    expect(await getInspection(db, other)).toEqual(inspection);
  });

  it('runs unsandboxed (npx as the operator) only when the operator asks for it', async () => {
    await declare('kelvin');
    const broken = { ...settings, bwrap: '/nonexistent/bwrap' };
    const data = await inspectAndWrite(db, [SLUG], { settings: broken, unsandboxed: true });
    expect((data.servers[SLUG] as Inspected).tools[0]!.description).toBe('Forecast for a city, in kelvin units.');
  }, 120_000);
});
