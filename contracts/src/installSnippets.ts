/**
 * Install snippets for an MCP server's page, one per client (and per remote when a server offers several), from its
 * server.json record. Pure: the same text is rendered on the server and in the browser. Secrets never appear as
 * values: they are `<NAME>` placeholders, or VS Code `inputs` of type promptString with password: true.
 *
 * Shapes follow each client's documentation, and the tests hold them to the clients themselves (the Claude Code CLI
 * and VS Code's published configuration schema):
 * - Claude Desktop: claude_desktop_config.json `mcpServers` {command, args, env}; a remote-only server runs through
 *   the `mcp-remote` bridge (headers as `--header Name:${ENV}` with the value in env), or is added as a connector.
 * - Cursor: .cursor/mcp.json `mcpServers` ({command, args, env} or {url, headers}) and the
 *   cursor://anysphere.cursor-deeplink/mcp/install?name=…&config=<base64 JSON> link.
 * - VS Code: .vscode/mcp.json `servers` ({type: stdio, command, args, env} or {type: http|sse, url, headers}) with
 *   `inputs`, and the vscode:mcp/install?<JSON> link.
 * - Claude Code: `claude mcp add <name> --transport stdio [--env K=V…] -- <command> …` or
 *   `claude mcp add <name> --transport http|sse <url> [--header "K: V"…]`. The name comes first and headers after
 *   the URL: --env and --header take several values and would swallow the words that follow them.
 * On Windows, npx is a .cmd script that a client cannot start directly, so it runs through `cmd /c`.
 */
import type {
  McpArgument,
  McpInput,
  McpKeyValueInput,
  McpPackage,
  McpRemote,
  ServerJson,
} from '@aitools/contracts/mcp';

/** The visitor's system: only Windows changes a snippet. */
export type Os = 'posix' | 'windows';
export const OS_CHOICES: { os: Os; label: string }[] = [
  { os: 'posix', label: 'macOS/Linux' },
  { os: 'windows', label: 'Windows' },
];
export const readOs = (value: string | null | undefined): Os => (value === 'windows' ? 'windows' : 'posix');

/** Something the visitor must supply. */
export interface Prompt {
  id: string;
  description: string;
  secret: boolean;
}
/** A value: literal text and prompts, e.g. ["Bearer ", {id: "github_token"}]. */
type Value = (string | Prompt)[];

interface StdioLaunch {
  kind: 'stdio';
  command: string;
  args: Value[];
  env: { name: string; value: Value }[];
}
interface RemoteLaunch {
  kind: 'remote';
  transport: 'streamable-http' | 'sse';
  url: Value;
  headers: { name: string; value: Value }[];
}
type Launch = StdioLaunch | RemoteLaunch;

export type ClientId = 'claude-desktop' | 'cursor' | 'vscode' | 'claude-code';

export interface Snippet {
  client: ClientId;
  label: string;
  language: 'json' | 'shell';
  /** Which remote this snippet connects to, when the server offers several. */
  variant?: { id: string; label: string };
  /** Where the snippet goes (file paths per system), shown above it. */
  files?: { system: string; path: string }[];
  code: string;
  /** A one-click install link of the client, when it has one. */
  link?: { label: string; href: string };
  note?: string;
  /** The same snippet with every optional setting as a placeholder to fill in or delete; absent when there are none. */
  withOptional?: { code: string; names: string[] };
}

const prompt = (id: string, input: McpInput, fallback: string): Prompt => ({
  id,
  description: input.description ?? fallback,
  secret: !!input.isSecret,
});

/** `{name}` parts of a value filled from its variables: a fixed value or optional default as text, else a prompt. */
function template(text: string, variables: Record<string, McpInput> = {}): Value {
  const out: Value = [];
  let last = 0;
  for (const m of text.matchAll(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g)) {
    const v = variables[m[1]];
    if (!v) continue;
    out.push(text.slice(last, m.index));
    out.push(v.value ?? (v.default !== undefined && !v.isSecret ? v.default : prompt(m[1], v, m[1])));
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return out.filter((p) => p !== '');
}

/**
 * A required input without a fixed value is asked for. An optional one is left out (the server's default applies),
 * unless `optional` asks for it too (then its default, or a prompt).
 */
function inputValue(id: string, input: McpInput, optional: boolean): Value | null {
  if (input.value !== undefined) return template(input.value, input.variables);
  if (!input.isRequired && !optional) return null;
  if (input.default !== undefined && !input.isSecret) return [input.default];
  return [prompt(id, input, id)];
}

function argumentValues(args: McpArgument[] = [], optional: boolean): Value[] {
  const out: Value[] = [];
  for (const a of args) {
    if (a.type === 'positional') {
      const v = inputValue(a.valueHint ?? 'value', a, optional);
      if (v) out.push(v);
      continue;
    }
    if (a.format === 'boolean') {
      // A switch: on when its value says so, or when an optional one is shown.
      if (a.value === 'true' || (a.value === undefined && (a.isRequired || optional))) out.push([a.name]);
      continue;
    }
    const v = inputValue(a.name.replace(/^-+/, ''), a, optional);
    // The registry's form is `--flag=value` (some CLIs accept nothing else); a short `-f` takes its value apart.
    if (v) out.push(...(/^-[^-]$/.test(a.name) ? [[a.name], v] : [[`${a.name}=`, ...v]]));
  }
  return out;
}

function envValues(vars: McpKeyValueInput[] = [], optional: boolean) {
  return vars.flatMap((e) => {
    const value = inputValue(e.name, e, optional);
    return value ? [{ name: e.name, value }] : [];
  });
}

const DEFAULT_RUNTIME: Record<string, string> = { npm: 'npx', pypi: 'uvx', oci: 'docker', nuget: 'dnx' };

/**
 * docker's `-e NAME=value` would put the value (a token, often) on docker's command line: it becomes `-e NAME`, which
 * passes NAME through from the client's environment, and NAME=value goes into the entry's env.
 */
function dockerEnvThroughEnvironment(pkg: McpPackage): McpPackage {
  const env: McpKeyValueInput[] = [];
  const runtimeArguments = pkg.runtimeArguments?.map((a): McpArgument => {
    if (a.type !== 'named' || (a.name !== '-e' && a.name !== '--env')) return a;
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(a.value ?? '');
    if (!m) return a;
    env.push({ ...a, name: m[1], value: m[2] });
    return { type: 'named', name: a.name, value: m[1] };
  });
  return env.length
    ? { ...pkg, runtimeArguments, environmentVariables: [...(pkg.environmentVariables ?? []), ...env] }
    : pkg;
}

/** How a client starts a package over stdio, or null when we do not know how to run it. */
function packageLaunch(pkg: McpPackage, optional: boolean): StdioLaunch | null {
  if (pkg.transport.type !== 'stdio') return null;
  const command = pkg.runtimeHint ?? DEFAULT_RUNTIME[pkg.registryType];
  if (!command) return null;
  if (command === 'docker') pkg = dockerEnvThroughEnvironment(pkg);
  const env = envValues(pkg.environmentVariables, optional);
  const runtimeArgs = pkg.runtimeArguments?.length ? argumentValues(pkg.runtimeArguments, optional) : null;
  // The package's `version` is left out on purpose: a directory's install command follows the package's releases,
  // so a visitor runs its current one rather than the release the record was last checked at.
  let target = pkg.identifier;
  let prefix: Value[];
  if (command === 'docker') {
    // docker passes each variable through from the client's environment (-e NAME), set in `env`.
    prefix = runtimeArgs ?? [['run'], ['-i'], ['--rm'], ...env.flatMap((e) => [['-e'], [e.name]])];
    // A server.json may already name the image among its runtime arguments.
    const image = target.replace(/:[^/]+$/, '');
    if (runtimeArgs?.some((v) => v.length === 1 && typeof v[0] === 'string' && v[0].replace(/:[^/]+$/, '') === image))
      target = '';
  } else {
    prefix = runtimeArgs ?? (command === 'npx' ? [['-y']] : []);
  }
  return {
    kind: 'stdio',
    command,
    args: [...prefix, ...(target ? [[target]] : []), ...argumentValues(pkg.packageArguments, optional)],
    env,
  };
}

function remoteLaunch(remote: McpRemote, optional: boolean): RemoteLaunch {
  return {
    kind: 'remote',
    transport: remote.type,
    url: template(remote.url, remote.variables),
    headers: (remote.headers ?? []).flatMap((h) => {
      const value = inputValue(h.name, h, optional);
      return value ? [{ name: h.name, value }] : [];
    }),
  };
}

/** One way to install: a package over stdio, or one of the remotes (each with the key it is added under). */
interface InstallOption {
  key: string;
  variant?: { id: string; label: string };
  launch: (optional: boolean) => Launch;
}

const transportLabel = (type: string) => (type === 'sse' ? 'SSE' : 'Streamable HTTP');

/** The first package we can run, and every remote, streamable HTTP first (more than one: each is labelled). */
function installOptions(server: ServerJson, key: string): { stdio: InstallOption | null; remotes: InstallOption[] } {
  const pkg = (server.packages ?? []).find((p) => packageLaunch(p, false) !== null);
  const stdio = pkg ? { key, launch: (optional: boolean) => packageLaunch(pkg, optional)! } : null;
  const remotes = [...(server.remotes ?? [])].sort((a, b) => Number(a.type === 'sse') - Number(b.type === 'sse'));
  const hostOf = (r: McpRemote) => /^[a-z]+:\/\/([^/{]+)/i.exec(r.url)?.[1] ?? '';
  // Remotes on different hosts are different servers (Cloudflare's bindings, docs, …): each gets its own key.
  const distinctHosts = new Set(remotes.map(hostOf)).size > 1;
  return {
    stdio,
    remotes: remotes.map((r, i) => ({
      key: distinctHosts && hostOf(r) ? `${key}-${hostOf(r).split('.')[0]}` : key,
      ...(remotes.length > 1
        ? { variant: { id: `remote-${i}`, label: `${r.url.replace(/^[a-z]+:\/\//i, '')} (${transportLabel(r.type)})` } }
        : {}),
      launch: (optional: boolean) => remoteLaunch(r, optional),
    })),
  };
}

/** The key a server gets in the clients' configuration: the tool slug without its "-mcp-server" suffix. */
export function serverKey(slug: string): string {
  return slug.replace(/-mcp-server$/, '') || slug;
}

// ---- rendering values per client

const placeholder = (p: Prompt) => `<${p.id}>`;
const asPlaceholders = (v: Value) => v.map((p) => (typeof p === 'string' ? p : placeholder(p))).join('');
const vscodeInputId = (p: Prompt) =>
  p.id
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
const asVscode = (v: Value) => v.map((p) => (typeof p === 'string' ? p : `\${input:${vscodeInputId(p)}}`)).join('');
const json = (value: unknown) => JSON.stringify(value, null, 2);
const record = (entries: { name: string; value: string }[]) =>
  Object.fromEntries(entries.map((e) => [e.name, e.value]));

/** POSIX shell word: left bare when safe, else single-quoted. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A word for Windows' cmd and PowerShell alike: left bare when safe, else double-quoted (single quotes mean nothing
 * to cmd). Inside double quotes both shells still expand `%…%`, `$`, and a backtick, so such words keep the POSIX form.
 */
export function windowsQuote(word: string): string {
  if (/^[\w@+=:,./-]+$/.test(word)) return word;
  return /["$`%]/.test(word) ? shellQuote(word) : `"${word}"`;
}

/** UTF-8 text as base64, in browsers and Node alike. */
export function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** On Windows, npx (a .cmd script) starts through cmd /c. */
const forOs = (os: Os, command: string, args: string[]) =>
  os === 'windows' && command === 'npx' ? { command: 'cmd', args: ['/c', 'npx', ...args] } : { command, args };

function stdioConfig(l: StdioLaunch, render: (v: Value) => string, os: Os) {
  const env = l.env.map((e) => ({ name: e.name, value: render(e.value) }));
  return { ...forOs(os, l.command, l.args.map(render)), ...(env.length ? { env: record(env) } : {}) };
}

function headerRecord(l: RemoteLaunch, render: (v: Value) => string) {
  return l.headers.length ? { headers: record(l.headers.map((h) => ({ name: h.name, value: render(h.value) }))) } : {};
}

/** mcp-remote reads header values from env (`--header Name:${ENV}`) so spaces survive every platform's shell. */
function bridgeConfig(l: RemoteLaunch, os: Os) {
  const env = l.headers.map((h) => ({
    name: `${h.name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_HEADER`.replace(/^AUTHORIZATION_HEADER$/, 'AUTH_HEADER'),
    header: h,
  }));
  return {
    ...forOs(os, 'npx', [
      '-y',
      'mcp-remote',
      asPlaceholders(l.url),
      ...(l.transport === 'sse' ? ['--transport', 'sse-only'] : []),
      ...env.flatMap((e) => ['--header', `${e.header.name}:\${${e.name}}`]),
    ]),
    ...(env.length ? { env: record(env.map((e) => ({ name: e.name, value: asPlaceholders(e.header.value) }))) } : {}),
  };
}

function prompts(l: Launch): Prompt[] {
  const values =
    l.kind === 'stdio' ? [...l.args, ...l.env.map((e) => e.value)] : [l.url, ...l.headers.map((h) => h.value)];
  const seen = new Map<string, Prompt>();
  for (const v of values)
    for (const p of v) if (typeof p !== 'string' && !seen.has(vscodeInputId(p))) seen.set(vscodeInputId(p), p);
  return [...seen.values()];
}

/** What the optional variant adds: the names of the variables, headers and arguments it shows beyond the required ones. */
function optionalNames(option: InstallOption): string[] {
  const names = (l: Launch) =>
    l.kind === 'stdio'
      ? [...l.env.map((e) => e.name), ...l.args.map(asPlaceholders)]
      : [asPlaceholders(l.url), ...l.headers.map((h) => h.name)];
  const required = new Set(names(option.launch(false)));
  return names(option.launch(true)).filter((n) => !required.has(n));
}

/** A client's snippet for one install option, rendered with the required settings and, when any, the optional ones too. */
function variants(
  option: InstallOption,
  render: (launch: Launch) => Pick<Snippet, 'code' | 'link'>,
): Pick<Snippet, 'code' | 'link' | 'variant' | 'withOptional'> {
  const names = optionalNames(option);
  return {
    ...(option.variant ? { variant: option.variant } : {}),
    ...render(option.launch(false)),
    ...(names.length ? { withOptional: { code: render(option.launch(true)).code, names } } : {}),
  };
}

type ClientHead = Pick<Snippet, 'client' | 'label' | 'language' | 'files'>;

/** A client that connects to remote servers itself: a snippet per remote when the server has any, else its package. */
function perOption(
  server: ServerJson,
  key: string,
  head: ClientHead,
  render: (option: InstallOption, launch: Launch) => Pick<Snippet, 'code' | 'link'>,
): Snippet[] {
  const { stdio, remotes } = installOptions(server, key);
  const options = remotes.length ? remotes : stdio ? [stdio] : [];
  return options.map((option) => ({ ...head, ...variants(option, (l) => render(option, l)) }));
}

const CLAUDE_DESKTOP_CONFIG = [
  { system: 'macOS', path: '~/Library/Application Support/Claude/claude_desktop_config.json' },
  { system: 'Windows', path: '%APPDATA%\\Claude\\claude_desktop_config.json' },
];

function claudeDesktopSnippets(server: ServerJson, key: string, os: Os): Snippet[] {
  const { stdio, remotes } = installOptions(server, key);
  const base = {
    client: 'claude-desktop',
    label: 'Claude Desktop',
    language: 'json',
    files: CLAUDE_DESKTOP_CONFIG,
  } as const;
  if (stdio)
    return [
      {
        ...base,
        ...variants(stdio, (l) => ({
          code: json({ mcpServers: { [stdio.key]: stdioConfig(l as StdioLaunch, asPlaceholders, os) } }),
        })),
      },
    ];
  return remotes.map((r) => {
    const url = asPlaceholders((r.launch(false) as RemoteLaunch).url);
    return {
      ...base,
      ...variants(r, (l) => ({ code: json({ mcpServers: { [r.key]: bridgeConfig(l as RemoteLaunch, os) } }) })),
      note: `A remote server: this entry bridges to it through mcp-remote. Or add it as a custom connector (Settings > Connectors > Add custom connector) with the URL ${url}.`,
    };
  });
}

function cursorSnippets(server: ServerJson, key: string, os: Os): Snippet[] {
  const files = [
    { system: 'This project', path: '.cursor/mcp.json' },
    { system: 'All projects', path: '~/.cursor/mcp.json' },
  ];
  return perOption(server, key, { client: 'cursor', label: 'Cursor', language: 'json', files }, (option, l) => {
    const config =
      l.kind === 'remote'
        ? { url: asPlaceholders(l.url), ...headerRecord(l, asPlaceholders) }
        : stdioConfig(l, asPlaceholders, os);
    return {
      code: json({ mcpServers: { [option.key]: config } }),
      link: {
        label: 'Add to Cursor',
        href: `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(option.key)}&config=${encodeURIComponent(base64Utf8(JSON.stringify(config)))}`,
      },
    };
  });
}

function vscodeSnippets(server: ServerJson, key: string, os: Os): Snippet[] {
  const files = [{ system: 'This workspace', path: '.vscode/mcp.json' }];
  return perOption(server, key, { client: 'vscode', label: 'VS Code', language: 'json', files }, (option, l) => {
    const config =
      l.kind === 'remote'
        ? { type: l.transport === 'sse' ? 'sse' : 'http', url: asVscode(l.url), ...headerRecord(l, asVscode) }
        : { type: 'stdio', ...stdioConfig(l, asVscode, os) };
    const inputs = prompts(l).map((p) => ({
      type: 'promptString',
      id: vscodeInputId(p),
      description: p.description,
      ...(p.secret ? { password: true } : {}),
    }));
    return {
      code: json({ ...(inputs.length ? { inputs } : {}), servers: { [option.key]: config } }),
      link: {
        label: 'Install in VS Code',
        href: `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name: option.key, ...config, ...(inputs.length ? { inputs } : {}) }))}`,
      },
    };
  });
}

function claudeCodeSnippets(server: ServerJson, key: string, os: Os): Snippet[] {
  const quote = os === 'windows' ? windowsQuote : shellQuote;
  return perOption(server, key, { client: 'claude-code', label: 'Claude Code', language: 'shell' }, (option, l) => {
    const words =
      l.kind === 'remote'
        ? [
            'claude',
            'mcp',
            'add',
            option.key,
            '--transport',
            l.transport === 'sse' ? 'sse' : 'http',
            asPlaceholders(l.url),
            ...l.headers.flatMap((h) => ['--header', `${h.name}: ${asPlaceholders(h.value)}`]),
          ]
        : (() => {
            const { command, args } = forOs(os, l.command, l.args.map(asPlaceholders));
            return [
              'claude',
              'mcp',
              'add',
              option.key,
              '--transport',
              'stdio',
              ...l.env.flatMap((e) => ['--env', `${e.name}=${asPlaceholders(e.value)}`]),
              '--',
              command,
              ...args,
            ];
          })();
    return { code: words.map(quote).join(' ') };
  });
}

/** Every client's snippets for the server (one per remote where it offers several); [] when its record names nothing
 *  we can install. */
export function installSnippets(server: ServerJson, key: string, os: Os = 'posix'): Snippet[] {
  return [claudeDesktopSnippets, cursorSnippets, vscodeSnippets, claudeCodeSnippets].flatMap((make) =>
    make(server, key, os),
  );
}

/** Whether the Windows snippets differ from the others (so the page offers the choice). */
export function differsOnWindows(server: ServerJson, key: string): boolean {
  const code = (os: Os) =>
    installSnippets(server, key, os)
      .map((s) => s.code + (s.withOptional?.code ?? ''))
      .join('\n');
  return code('posix') !== code('windows');
}
