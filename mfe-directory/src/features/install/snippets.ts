/**
 * Install snippets for an MCP server's page, one per client, from its server.json record. Pure: the same text is
 * rendered on the server and in the browser. Secrets never appear as values: they are `<NAME>` placeholders, or
 * VS Code `inputs` of type promptString with password: true.
 *
 * Shapes follow each client's documentation:
 * - Claude Desktop: claude_desktop_config.json `mcpServers` {command, args, env}; a remote-only server runs through
 *   the `mcp-remote` bridge (headers as `--header Name:${ENV}` with the value in env), or is added as a connector.
 * - Cursor: .cursor/mcp.json `mcpServers` ({command, args, env} or {url, headers}) and the
 *   cursor://anysphere.cursor-deeplink/mcp/install?name=…&config=<base64 JSON> link.
 * - VS Code: .vscode/mcp.json `servers` ({type: stdio, command, args, env} or {type: http|sse, url, headers}) with
 *   `inputs`, and the vscode:mcp/install?<JSON> link.
 * - Claude Code: `claude mcp add --transport stdio|http|sse [--env K=V] [--header "K: V"] <name> …`.
 */
import type { McpArgument, McpInput, McpKeyValueInput, McpPackage, McpRemote, ServerJson } from '@aitools/api/contracts/mcp';

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

export type ClientId = 'claude-desktop' | 'cursor' | 'vscode' | 'claude-code';

export interface Snippet {
  client: ClientId;
  label: string;
  language: 'json' | 'shell';
  /** Where the snippet goes (file paths per system), shown above it. */
  files?: { system: string; path: string }[];
  code: string;
  /** A one-click install link of the client, when it has one. */
  link?: { label: string; href: string };
  note?: string;
}

const prompt = (id: string, input: McpInput, fallback: string): Prompt => ({ id, description: input.description ?? fallback, secret: !!input.isSecret });

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

/** A required input without a fixed value is asked for; an optional one is left out (the server's default applies). */
function inputValue(id: string, input: McpInput): Value | null {
  if (input.value !== undefined) return template(input.value, input.variables);
  if (!input.isRequired) return null;
  if (input.default !== undefined && !input.isSecret) return [input.default];
  return [prompt(id, input, id)];
}

function argumentValues(args: McpArgument[] = []): Value[] {
  const out: Value[] = [];
  for (const a of args) {
    if (a.type === 'positional') {
      const v = inputValue(a.valueHint ?? 'value', a);
      if (v) out.push(v);
      continue;
    }
    if (a.format === 'boolean' && a.value !== undefined) {
      if (a.value === 'true') out.push([a.name]);
      continue;
    }
    const v = inputValue(a.name.replace(/^-+/, ''), a);
    // The registry's form is `--flag=value` (some CLIs accept nothing else); a short `-f` takes its value apart.
    if (v) out.push(...(/^-[^-]$/.test(a.name) ? [[a.name], v] : [[`${a.name}=`, ...v]]));
  }
  return out;
}

function envValues(vars: McpKeyValueInput[] = []) {
  return vars.flatMap((e) => {
    const value = inputValue(e.name, e);
    return value ? [{ name: e.name, value }] : [];
  });
}

const DEFAULT_RUNTIME: Record<string, string> = { npm: 'npx', pypi: 'uvx', oci: 'docker', nuget: 'dnx' };

/** How a client starts a package over stdio, or null when we do not know how to run it. */
function packageLaunch(pkg: McpPackage): StdioLaunch | null {
  if (pkg.transport.type !== 'stdio') return null;
  const command = pkg.runtimeHint ?? DEFAULT_RUNTIME[pkg.registryType];
  if (!command) return null;
  const env = envValues(pkg.environmentVariables);
  const runtimeArgs = pkg.runtimeArguments?.length ? argumentValues(pkg.runtimeArguments) : null;
  let target = pkg.identifier;
  let prefix: Value[];
  if (command === 'docker') {
    // docker passes each variable through from the client's environment (-e NAME), set in `env`.
    if (pkg.version && !/:[^/]+$/.test(target)) target += `:${pkg.version}`;
    prefix = runtimeArgs ?? [['run'], ['-i'], ['--rm'], ...env.flatMap((e) => [['-e'], [e.name]])];
    // A server.json may already name the image among its runtime arguments.
    const image = target.replace(/:[^/]+$/, '');
    if (runtimeArgs?.some((v) => v.length === 1 && typeof v[0] === 'string' && v[0].replace(/:[^/]+$/, '') === image)) target = '';
  } else {
    if (pkg.version) target += command === 'dnx' || command === 'npx' || command === 'uvx' ? `@${pkg.version}` : '';
    prefix = runtimeArgs ?? (command === 'npx' ? [['-y']] : []);
  }
  return { kind: 'stdio', command, args: [...prefix, ...(target ? [[target]] : []), ...argumentValues(pkg.packageArguments)], env };
}

function remoteLaunch(remote: McpRemote): RemoteLaunch {
  return {
    kind: 'remote',
    transport: remote.type,
    url: template(remote.url, remote.variables),
    headers: (remote.headers ?? []).flatMap((h) => {
      const value = inputValue(h.name, h);
      return value ? [{ name: h.name, value }] : [];
    }),
  };
}

/** The first package we can run, and the first remote (streamable HTTP preferred over SSE). */
function installOptions(server: ServerJson): { stdio: StdioLaunch | null; remote: RemoteLaunch | null } {
  const stdio = (server.packages ?? []).map(packageLaunch).find((l): l is StdioLaunch => l !== null) ?? null;
  const remotes = server.remotes ?? [];
  const remote = remotes.find((r) => r.type === 'streamable-http') ?? remotes[0];
  return { stdio, remote: remote ? remoteLaunch(remote) : null };
}

/** The key a server gets in the clients' configuration: the tool slug without its "-mcp-server" suffix. */
export function serverKey(slug: string): string {
  return slug.replace(/-mcp-server$/, '') || slug;
}

// ---- rendering values per client

const placeholder = (p: Prompt) => `<${p.id}>`;
const asPlaceholders = (v: Value) => v.map((p) => (typeof p === 'string' ? p : placeholder(p))).join('');
const vscodeInputId = (p: Prompt) => p.id.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
const asVscode = (v: Value) => v.map((p) => (typeof p === 'string' ? p : `\${input:${vscodeInputId(p)}}`)).join('');
const json = (value: unknown) => JSON.stringify(value, null, 2);
const record = (entries: { name: string; value: string }[]) => Object.fromEntries(entries.map((e) => [e.name, e.value]));

/** POSIX shell word: left bare when safe, else single-quoted. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** UTF-8 text as base64, in browsers and Node alike. */
export function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function stdioConfig(l: StdioLaunch, render: (v: Value) => string) {
  const env = l.env.map((e) => ({ name: e.name, value: render(e.value) }));
  return { command: l.command, args: l.args.map(render), ...(env.length ? { env: record(env) } : {}) };
}

function headerRecord(l: RemoteLaunch, render: (v: Value) => string) {
  return l.headers.length ? { headers: record(l.headers.map((h) => ({ name: h.name, value: render(h.value) }))) } : {};
}

/** mcp-remote reads header values from env (`--header Name:${ENV}`) so spaces survive every platform's shell. */
function bridgeConfig(l: RemoteLaunch) {
  const env = l.headers.map((h) => ({ name: `${h.name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_HEADER`.replace(/^AUTHORIZATION_HEADER$/, 'AUTH_HEADER'), header: h }));
  return {
    command: 'npx',
    args: [
      '-y',
      'mcp-remote',
      asPlaceholders(l.url),
      ...(l.transport === 'sse' ? ['--transport', 'sse-only'] : []),
      ...env.flatMap((e) => ['--header', `${e.header.name}:\${${e.name}}`]),
    ],
    ...(env.length ? { env: record(env.map((e) => ({ name: e.name, value: asPlaceholders(e.header.value) }))) } : {}),
  };
}

function prompts(l: StdioLaunch | RemoteLaunch): Prompt[] {
  const values = l.kind === 'stdio' ? [...l.args, ...l.env.map((e) => e.value)] : [l.url, ...l.headers.map((h) => h.value)];
  const seen = new Map<string, Prompt>();
  for (const v of values) for (const p of v) if (typeof p !== 'string' && !seen.has(vscodeInputId(p))) seen.set(vscodeInputId(p), p);
  return [...seen.values()];
}

const CLAUDE_DESKTOP_CONFIG = [
  { system: 'macOS', path: '~/Library/Application Support/Claude/claude_desktop_config.json' },
  { system: 'Windows', path: '%APPDATA%\\Claude\\claude_desktop_config.json' },
];

function claudeDesktopSnippet(server: ServerJson, key: string): Snippet | null {
  const { stdio, remote } = installOptions(server);
  if (!stdio && !remote) return null;
  const config = stdio ? stdioConfig(stdio, asPlaceholders) : bridgeConfig(remote!);
  return {
    client: 'claude-desktop',
    label: 'Claude Desktop',
    language: 'json',
    files: CLAUDE_DESKTOP_CONFIG,
    code: json({ mcpServers: { [key]: config } }),
    ...(stdio
      ? {}
      : {
          note: `A remote server: this entry bridges to it through mcp-remote. Or add it as a custom connector (Settings > Connectors > Add custom connector) with the URL ${asPlaceholders(remote!.url)}.`,
        }),
  };
}

function cursorSnippet(server: ServerJson, key: string): Snippet | null {
  const { stdio, remote } = installOptions(server);
  if (!stdio && !remote) return null;
  const config = remote ? { url: asPlaceholders(remote.url), ...headerRecord(remote, asPlaceholders) } : stdioConfig(stdio!, asPlaceholders);
  return {
    client: 'cursor',
    label: 'Cursor',
    language: 'json',
    files: [
      { system: 'This project', path: '.cursor/mcp.json' },
      { system: 'All projects', path: '~/.cursor/mcp.json' },
    ],
    code: json({ mcpServers: { [key]: config } }),
    link: {
      label: 'Add to Cursor',
      href: `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(key)}&config=${encodeURIComponent(base64Utf8(JSON.stringify(config)))}`,
    },
  };
}

function vscodeSnippet(server: ServerJson, key: string): Snippet | null {
  const { stdio, remote } = installOptions(server);
  const launch = remote ?? stdio;
  if (!launch) return null;
  const config =
    launch.kind === 'remote'
      ? { type: launch.transport === 'sse' ? 'sse' : 'http', url: asVscode(launch.url), ...headerRecord(launch, asVscode) }
      : { type: 'stdio', ...stdioConfig(launch, asVscode) };
  const inputs = prompts(launch).map((p) => ({ type: 'promptString', id: vscodeInputId(p), description: p.description, ...(p.secret ? { password: true } : {}) }));
  return {
    client: 'vscode',
    label: 'VS Code',
    language: 'json',
    files: [{ system: 'This workspace', path: '.vscode/mcp.json' }],
    code: json({ ...(inputs.length ? { inputs } : {}), servers: { [key]: config } }),
    link: { label: 'Install in VS Code', href: `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name: key, ...config, ...(inputs.length ? { inputs } : {}) }))}` },
  };
}

function claudeCodeSnippet(server: ServerJson, key: string): Snippet | null {
  const { stdio, remote } = installOptions(server);
  const launch = remote ?? stdio;
  if (!launch) return null;
  const words =
    launch.kind === 'remote'
      ? [
          'claude', 'mcp', 'add', '--transport', launch.transport === 'sse' ? 'sse' : 'http',
          ...launch.headers.flatMap((h) => ['--header', `${h.name}: ${asPlaceholders(h.value)}`]),
          key, asPlaceholders(launch.url),
        ]
      : [
          'claude', 'mcp', 'add', '--transport', 'stdio',
          ...launch.env.flatMap((e) => ['--env', `${e.name}=${asPlaceholders(e.value)}`]),
          key, '--', launch.command, ...launch.args.map(asPlaceholders),
        ];
  return { client: 'claude-code', label: 'Claude Code', language: 'shell', code: words.map(shellQuote).join(' ') };
}

/** Every client's snippet for the server; [] when its record names nothing we can install. */
export function installSnippets(server: ServerJson, key: string): Snippet[] {
  return [claudeDesktopSnippet, cursorSnippet, vscodeSnippet, claudeCodeSnippet]
    .map((make) => make(server, key))
    .filter((s): s is Snippet => s !== null);
}
