/**
 * The sandbox an MCP server's npm package is inspected in (docs/mcp.md, "The inspection sandbox"). The package is
 * fetched with its install scripts off, outside the sandbox, into a throwaway folder; then it is started under
 * bubblewrap as an unprivileged user id of its own (setpriv), with kernel limits (prlimit) on its memory, processes,
 * CPU time and file sizes:
 * - no network (every namespace but the user's unshared), the system's programs read-only, none of the host's other
 *   files (no /work, /root, /home, /var, /etc but certificates): the operator's database, api/var and other servers'
 *   data are not in its file system at all;
 * - a throwaway home, working folder and /tmp, each a small tmpfs gone with the sandbox;
 * - no environment but PATH, HOME and the values the server's record declares;
 * - its own pid namespace, killed whole when the run ends (bubblewrap's init dies with its parent).
 * RLIMIT_NPROC does not bind root, so the sandbox never runs as root: the fresh uid holds nothing else, and the limit
 * counts every process and thread it starts. As root, bubblewrap mounts as root (so it reaches Node and the package
 * whatever the modes of the folders above them) and setpriv then drops to the uid inside, with no capability left;
 * as another user allowed to change uid (CAP_SETUID), setpriv drops first and bubblewrap runs as the uid in a user
 * namespace, so those folders must be open to it.
 */
import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import {
  chmodSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import type { InspectionConfig } from '../config';
import type { CommandSpec } from './inspector';

/** Where things are inside the sandbox. */
export const INSIDE = { home: '/home/sandbox', files: '/work', pkg: '/pkg', node: '/opt/node' } as const;
const INSIDE_PATH = `${INSIDE.node}/bin:/usr/local/bin:/usr/bin:/bin`;
/** Unprivileged user ids handed out, one a run: no file on the host belongs to them. */
const UIDS = { from: 1_000_000, to: 2_000_000_000 };

/** The folder Node is installed in (bound read-only into the sandbox), unless it is the system's own under /usr. */
function nodeRoot(): string | undefined {
  const root = dirname(dirname(process.execPath));
  return root === '/usr' || root.startsWith('/usr/') ? undefined : root;
}

/** Makes a bind's parent folder open to all: the one bubblewrap makes by itself is its own user's alone (as root,
 *  root's). */
const PARENT = ['--perms', '0755', '--dir'];

/** The top-level system folders: /bin, /lib... are symlinks into /usr on a merged system, folders elsewhere. */
function systemFolders(): string[] {
  const out: string[] = ['--ro-bind', '/usr', '/usr'];
  for (const dir of ['/bin', '/sbin', '/lib', '/lib64', '/lib32']) {
    if (!existsSync(dir)) continue;
    if (lstatSync(dir).isSymbolicLink()) out.push('--symlink', readlinkSync(dir), dir);
    else out.push('--ro-bind', dir, dir);
  }
  // Certificates and the alternatives the system's commands link through; nothing else of /etc.
  const etc = ['/etc/alternatives', '/etc/ssl', '/etc/ca-certificates'].filter((dir) => existsSync(dir));
  if (etc.length) out.push(...PARENT, '/etc');
  for (const dir of etc) out.push('--ro-bind', dir, dir);
  return out;
}

export interface SandboxRun {
  spec: CommandSpec;
  /** The user id the sandbox runs as (no other process has it). */
  uid: number;
}

/**
 * The command that runs `command` (paths inside the sandbox) with the package folder at /pkg, read-only, and only
 * `env` (plus PATH and HOME) in its environment.
 */
export function sandboxed(
  packageDir: string,
  command: string[],
  env: Record<string, string>,
  settings: InspectionConfig,
  {
    uid = randomInt(UIDS.from, UIDS.to),
    node = nodeRoot(),
    root = process.getuid?.() === 0,
  }: { uid?: number; node?: string; root?: boolean } = {},
): SandboxRun {
  const filesBytes = String(settings.filesMb * 1024 * 1024);
  const vars = { ...env, PATH: INSIDE_PATH, HOME: INSIDE.home };
  const drop = [
    'setpriv',
    `--reuid=${uid}`,
    `--regid=${uid}`,
    '--clear-groups',
    '--inh-caps=-all',
    // The bounding set too (bubblewrap, run as the uid, empties it itself).
    ...(root ? ['--bounding-set=-all'] : []),
    '--',
    'prlimit',
    `--nproc=${settings.processes}`,
    `--as=${settings.memoryMb * 1024 * 1024}`,
    `--cpu=${settings.cpuSeconds}`,
    `--fsize=${filesBytes}`,
    '--nofile=256',
    '--core=0',
    '--',
  ];
  const box = [
    settings.bwrap,
    // Not the user namespace as root: the uid would be mapped to root outside it, where RLIMIT_NPROC does not bind.
    ...(root ? [] : ['--unshare-user']),
    ...['--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try'],
    '--die-with-parent',
    '--new-session',
    ...systemFolders(),
    ...(node ? [...PARENT, dirname(INSIDE.node), '--ro-bind', node, INSIDE.node] : []),
    '--ro-bind',
    packageDir,
    INSIDE.pkg,
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    // Writable by the uid though bubblewrap, as root, makes them root's.
    ...[INSIDE.home, INSIDE.files, '/tmp'].flatMap((dir) => ['--perms', '1777', '--size', filesBytes, '--tmpfs', dir]),
    '--chdir',
    INSIDE.files,
    '--clearenv',
    ...Object.entries(vars).flatMap(([k, v]) => ['--setenv', k, v]),
    '--',
  ];
  // The first is found on the system's path; as root, setpriv and prlimit are the sandbox's, from its read-only /usr.
  const [first, ...args] = root ? [...box, ...drop, ...command] : [...drop, ...box, ...command];
  return { spec: { command: first!, args, env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' }, cwd: packageDir }, uid };
}

const probes = new Map<string, Promise<string | null>>();

/** Why bubblewrap cannot run a sandbox here (null: it can): tried once per bubblewrap command by starting `true`,
 *  without blocking the site's event loop. */
export function sandboxUnavailable(settings: InspectionConfig): Promise<string | null> {
  let probe = probes.get(settings.bwrap);
  if (!probe) {
    probe = probeSandbox(settings);
    probes.set(settings.bwrap, probe);
  }
  return probe;
}

async function probeSandbox(settings: InspectionConfig): Promise<string | null> {
  const empty = mkdtempSync(join(tmpdir(), 'sandbox-probe-'));
  try {
    const { spec } = sandboxed(empty, ['true'], {}, settings);
    const failure = await new Promise<{ code?: string | number | null; stderr: string } | null>((resolve) =>
      execFile(spec.command, spec.args, { env: spec.env, cwd: spec.cwd, timeout: 30_000 }, (err, _out, stderr) =>
        resolve(err ? { code: err.code, stderr: String(stderr) } : null),
      ),
    );
    if (!failure) return null;
    const said = failure.stderr.trim().split('\n').at(-1) ?? '';
    // The command missing: the one started, or one it could not start (setpriv's and bubblewrap's words).
    const missing =
      failure.code === 'ENOENT' ? spec.command : /(?:failed to execute|execvp) (\S+): No such file/.exec(said)?.[1];
    if (missing === settings.bwrap) return `bubblewrap is not installed (no ${settings.bwrap} command)`;
    if (missing) return `${missing} (util-linux) is not installed`;
    return `bubblewrap cannot start a sandbox here (${said || `exit ${String(failure.code)}`})`;
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}

export interface FetchedPackage {
  /** The folder holding node_modules (bound at /pkg). */
  dir: string;
  /** The command that starts the server, inside the sandbox. */
  command: string[];
  /** The license the package's own package.json declares. */
  license?: string;
}

export interface PackageJson {
  name?: string;
  license?: unknown;
  bin?: string | Record<string, string>;
}

/** The package's command: its only bin, or the one named as the package (without its scope). */
function binOf(pkg: string, manifest: PackageJson): string {
  const { bin } = manifest;
  if (typeof bin === 'string') return bin;
  const entries = Object.entries(bin ?? {});
  const own = entries.find(([name]) => name === pkg.replace(/^@[^/]+\//, ''));
  const chosen = own ?? (entries.length === 1 ? entries[0] : undefined);
  if (!chosen) throw new Error(entries.length ? 'its package names several commands' : 'its package has no command');
  if (typeof chosen[1] !== 'string') throw new Error('its package has no command');
  return chosen[1];
}

/** Bytes of the command read on the host, for its first line (a shebang): the file is the package's, not trusted. */
const HEAD_BYTES = 4096;

/** The command's file, symlinks resolved: it must stay in the package's own folder (a bin of `../../etc/passwd`, or a
 *  link out, would have the host read its own files). */
function binFile(dir: string, pkg: string, bin: string, said: string): string {
  const own = realpathSync(join(dir, 'node_modules', pkg));
  let file: string;
  try {
    file = realpathSync(join(own, bin));
  } catch {
    throw new Error(`${said} is not in its package`);
  }
  if (!file.startsWith(own + sep)) throw new Error(`${said} is outside its package`);
  return file;
}

/** The first line of a regular file, from its first HEAD_BYTES: opened without blocking (a FIFO would hold the site
 *  forever), a device or folder refused. */
async function firstLineOf(file: string, said: string): Promise<string> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`${said} is not a file`);
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0);
    return buffer.toString('utf8', 0, bytesRead).split('\n')[0]!;
  } finally {
    await handle.close();
  }
}

/** How the sandbox starts an installed package (`dir` holds its node_modules): a JavaScript command with the
 *  sandbox's Node, anything else by its own first line. */
export async function commandOf(dir: string, pkg: string, manifest: PackageJson): Promise<string[]> {
  const bin = binOf(pkg, manifest);
  const said = `its command (${bin.slice(0, 200)})`;
  const file = binFile(dir, pkg, bin, said);
  const firstLine = await firstLineOf(file, said);
  const inside = join(INSIDE.pkg, relative(realpathSync(dir), file));
  return /\.[cm]?js$/.test(file) || !firstLine.startsWith('#!') || /\bnode\b/.test(firstLine)
    ? ['node', inside]
    : [inside];
}

/** The first lines npm wrote that say what went wrong (npm masks credentials in a registry's address). */
const npmError = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => /^npm (error|ERR!)/.test(l) && !/A complete log|^npm error\s*$/.test(l))
    .slice(0, 2)
    .join(' ')
    .replace(/npm (error|ERR!)\s*/g, '')
    .slice(0, 300);

/**
 * Fetches `pkg@version` with its dependencies from the configured registry into a throwaway folder, install scripts
 * off, with npm's own throwaway cache and home (none of the operator's npm configuration or tokens). The folder is
 * readable by the sandbox's user (a public package; the caller removes it).
 */
export async function fetchPackage(pkg: string, version: string, settings: InspectionConfig): Promise<FetchedPackage> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-package-'));
  try {
    chmodSync(dir, 0o755);
    return await install(pkg, version, dir, settings);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

async function install(pkg: string, version: string, dir: string, settings: InspectionConfig): Promise<FetchedPackage> {
  const home = join(dir, '.home');
  mkdirSync(home);
  const args = [
    'install',
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
    '--no-package-lock',
    '--omit=dev',
    '--no-update-notifier',
    `--registry=${settings.npmRegistry}`,
    `--cache=${join(home, 'cache')}`,
    `--prefix=${dir}`,
    `${pkg}@${version}`,
  ];
  await new Promise<void>((resolve, reject) =>
    execFile(
      'npm',
      args,
      {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, NO_COLOR: '1' },
        timeout: settings.timeoutMs,
        maxBuffer: 4 * 1024 * 1024,
      },
      (err, _stdout, stderr) =>
        // Not err.message: it repeats the command line, the registry's address (and any credentials in it) included.
        err
          ? reject(
              new Error(
                `it could not be fetched: ${npmError(stderr) || (err.killed ? 'npm ran out of time' : `npm exited with ${String(err.code)}`)}`,
              ),
            )
          : resolve(),
    ),
  );
  rmSync(home, { recursive: true, force: true });
  const manifest = JSON.parse(readFileSync(join(dir, 'node_modules', pkg, 'package.json'), 'utf8')) as PackageJson;
  const command = await commandOf(dir, pkg, manifest);
  const license = typeof manifest.license === 'string' && manifest.license ? manifest.license : undefined;
  return { dir, command, ...(license ? { license } : {}) };
}
