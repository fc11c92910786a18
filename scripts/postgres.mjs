// A throwaway PostgreSQL cluster from the installed server binaries (Debian's `postgresql` package): made in a temp
// folder, listening on 127.0.0.1 at a free port, removed when stopped. `npm test` runs the Postgres suites on one;
// an operator can run the site on one: `node scripts/postgres.mjs -- npm start`. No container needed.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { constants, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The newest installed server's bin folder (PG_BIN overrides), or null. */
export function findPostgresBin() {
  const has = (dir) => ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(join(dir, b)));
  if (process.env.PG_BIN) return has(process.env.PG_BIN) ? process.env.PG_BIN : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (has(join(root, v, 'bin'))) return join(root, v, 'bin');
  return null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

// sh -c WATCH sh <pid> <dir> <stop command...>: waits for <pid> to end, then stops the server and removes <dir>.
const WATCH = 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; dir=$2; shift 2; "$@" >/dev/null 2>&1; rm -rf "$dir"';

/**
 * Starts a cluster and creates the database `aitools`. Resolves to { url, adminUrl, stop } (or null when no server
 * is installed). As root, the server runs as the `postgres` user (initdb and postgres refuse root).
 */
export async function startPostgres({ log = () => {} } = {}) {
  const bin = findPostgresBin();
  if (!bin) return null;
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? 'postgres' : userInfo().username;
  const dir = mkdtempSync(join(tmpdir(), 'aitools-pg-'));
  if (asRoot) {
    const ids = spawnSync('id', ['-u', owner], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', owner], { encoding: 'utf8' });
    if (ids.status !== 0)
      throw new Error(`running as root needs the "${owner}" user (the postgresql package creates it)`);
    chownSync(dir, Number(ids.stdout), Number(gid.stdout));
  }
  // A server binary's command line, run as the cluster's owner.
  const argv = (cmd, args) => (asRoot ? ['runuser', ['-u', owner, '--', cmd, ...args]] : [cmd, args]);
  const run = (cmd, args) => {
    const r = spawnSync(...argv(cmd, args), { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stderr || r.stdout}`);
  };
  const data = join(dir, 'data');
  const port = await freePort();
  const [stopCmd, stopArgs] = argv(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
  // pg_ctl starts the server in a session of its own, and a run ended by a signal (Ctrl-C) or SIGKILL fires no
  // 'exit' event: a detached watcher stops the server and removes the folder once this process is gone.
  const watcher = spawn('sh', ['-c', WATCH, 'sh', String(process.pid), dir, stopCmd, ...stopArgs], {
    detached: true,
    stdio: 'ignore',
  });
  watcher.unref();
  const stop = () => {
    if (existsSync(data)) spawnSync(stopCmd, stopArgs, { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
    watcher.kill();
  };
  // A crashed run must not leave a server behind.
  process.once('exit', stop);
  try {
    const initdb = (locale) =>
      run(join(bin, 'initdb'), ['-D', data, '--auth=trust', '--username=postgres', '--encoding=UTF8', locale]);
    // C.UTF-8, not C: lower() and upper() then fold non-ASCII letters as a production server's UTF-8 locale does (the
    // api's case-insensitive search is lower() ... LIKE). Plain C only where the system lacks that locale.
    try {
      initdb('--locale=C.UTF-8');
    } catch (err) {
      if (!/invalid locale/.test(err.message)) throw err;
      initdb('--no-locale');
    }
    // fsync stays on: the durability tests kill servers with SIGKILL and count what was acknowledged.
    const options = `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${dir} -c max_connections=200 -c fsync=on`;
    run(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', 'start']);
    run(join(bin, 'psql'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      'postgres',
      '-d',
      'postgres',
      '-qc',
      'CREATE DATABASE aitools',
    ]);
  } catch (err) {
    stop();
    throw err;
  }
  log(`PostgreSQL (${bin}) on 127.0.0.1:${port}, data in ${dir}`);
  const base = `postgres://postgres@127.0.0.1:${port}`;
  return {
    url: `${base}/aitools`,
    adminUrl: `${base}/postgres`,
    async stop() {
      process.removeListener('exit', stop);
      stop();
    },
  };
}

// node scripts/postgres.mjs -- <command...>: the command runs with DATABASE_URL on a fresh cluster.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dash = process.argv.indexOf('--');
  const command = dash >= 0 ? process.argv.slice(dash + 1) : [];
  if (!command.length) {
    console.error(
      'Usage: node scripts/postgres.mjs -- <command> [args...]   (runs it with DATABASE_URL on a throwaway cluster)',
    );
    process.exit(2);
  }
  const pg = await startPostgres({ log: (l) => console.log(`▶ ${l}`) });
  if (!pg) {
    console.error('✖ no PostgreSQL server is installed (Debian: apt-get install postgresql)');
    process.exit(1);
  }
  const child = spawn(command[0], command.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: pg.url },
  });
  // Ctrl-C and a closed terminal reach the command from the terminal itself; this process outlives it to remove the
  // cluster. A SIGTERM (a process manager's stop) is passed on.
  process.on('SIGINT', () => {});
  process.on('SIGHUP', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  const status = await new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? 128 + (constants.signals[signal] ?? 0)));
    child.on('error', (err) => {
      console.error(`✖ ${command[0]}: ${err.message}`);
      resolve(127);
    });
  });
  await pg.stop();
  process.exit(status);
}
