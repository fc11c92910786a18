/**
 * Debian's Varnish in front of a site, with the site's configuration (deploy/varnish/site.vcl, the xkey module of
 * varnish-modules) and an origins.vcl of its own naming one server, on a free port; for the `edge` spec and the
 * benchmark's "through the shared cache" row.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, REPO_ROOT } from './harness';

export const VARNISHD = '/usr/sbin/varnishd';
export const varnishInstalled = () => existsSync(VARNISHD);

export interface Varnish {
  url: string;
  /** Its own counters (varnishstat), e.g. MAIN.cache_hit. */
  counters(): Record<string, number>;
  /** varnishadm, with its answer. */
  admin(...args: string[]): string;
  stop(): Promise<void>;
}

/** A port for Varnish, known before the site starts (its PURGE_URLS names it). */
export const varnishPort = freePort;

/**
 * A copy of deploy/varnish that Varnish can read. Run as root, Varnish reads and compiles its configuration as an
 * unprivileged user of its own, who may not reach the checkout (a clone in a private temporary folder, say).
 */
export function readableVarnishConfig(): string {
  const dir = mkdtempSync(join(tmpdir(), 'varnish-'));
  cpSync(join(REPO_ROOT, 'deploy', 'varnish'), dir, { recursive: true });
  chmodSync(dir, 0o755);
  for (const name of readdirSync(dir)) chmodSync(join(dir, name), 0o644);
  return dir;
}

export async function startVarnish(originPort: string | number, port?: number): Promise<Varnish> {
  const dir = readableVarnishConfig();
  writeFileSync(
    join(dir, 'origins.vcl'),
    `import directors;
probe site_health { .url = "/api/health"; .interval = 500ms; .timeout = 2s; .window = 3; .threshold = 2; }
backend site { .host = "127.0.0.1"; .port = "${originPort}"; .probe = site_health; }
acl purgers { "127.0.0.1"; "::1"; }
sub vcl_init { new origins = directors.round_robin(); origins.add_backend(site); }
sub origin_pick { set req.backend_hint = origins.backend(); }
`,
  );
  const listen = port ?? (await freePort());
  const workDir = join(dir, 'n');
  const child = spawn(
    VARNISHD,
    [
      '-F',
      '-a',
      `127.0.0.1:${listen}`,
      '-T',
      `127.0.0.1:${await freePort()}`,
      '-f',
      join(dir, 'site.vcl'),
      '-p',
      `vcl_path=${dir}:/usr/share/varnish/vcl`,
      '-n',
      workDir,
      '-s',
      'malloc,64m',
      // Counters current after each request (the spec reads them).
      '-p',
      'thread_stats_rate=1',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://localhost:${listen}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error('Varnish did not start (its configuration is in deploy/varnish)');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    counters() {
      const r = spawnSync('varnishstat', ['-n', workDir, '-j'], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`varnishstat: ${r.stderr}`);
      const json = JSON.parse(r.stdout) as { counters: Record<string, { value: number }> };
      return Object.fromEntries(Object.entries(json.counters).map(([k, v]) => [k, v.value]));
    },
    admin(...args) {
      return spawnSync('varnishadm', ['-n', workDir, ...args], { encoding: 'utf8' }).stdout;
    },
    stop,
  };
}
