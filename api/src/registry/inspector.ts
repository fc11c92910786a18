/**
 * Runs an MCP server as a child process and asks it what it offers, with the official TypeScript SDK's client over
 * stdio. The child gets a minimal environment (PATH, a throwaway HOME and npm cache: none of the operator's
 * variables, so no tokens), a time limit for the whole exchange, bounded output, and is killed with its whole process
 * group at the end (it runs detached as a group leader, so npx, npm and the server under it all go). This limits what
 * a run can take and leave behind; it is not a sandbox by itself: sandbox.ts gives it the command that runs the
 * package inside bubblewrap (docs/mcp.md, The inspection sandbox).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import {
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListToolsResultSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { InspectedPrompt, InspectedResource, InspectedTool } from '@aitools/contracts/inspection';

export interface RunLimits {
  /** For everything: starting (npx may install first), initialize and the lists. */
  timeoutMs: number;
  /** Bytes the server may write to stdout in all; more ends the run. */
  maxStdoutBytes: number;
  /** Bytes of stderr kept for the failure reason (the rest is read and dropped). */
  keptStderrBytes: number;
}

export const DEFAULT_LIMITS: RunLimits = { timeoutMs: 120_000, maxStdoutBytes: 8 * 1024 * 1024, keptStderrBytes: 4096 };
/** Pages of one list followed before stopping (a server that pages forever must not hold the run). */
const MAX_PAGES = 20;

/** The answers of one inspection's lists came to more than its total: the inspection fails, nothing of it kept. */
export class OverBudget extends Error {}

/** Counts the answers of one inspection's lists, all together (each answer alone may be within its own bound),
 *  against `maxBytes`. */
function budget(maxBytes: number): (answer: unknown) => void {
  let bytes = 0;
  return (answer) => {
    bytes += Buffer.byteLength(JSON.stringify(answer));
    if (bytes > maxBytes) throw new OverBudget(`its lists came to more than ${maxBytes} bytes`);
  };
}

/** A prompt or resource list that fails is left empty, unless the inspection went over its total. */
function noneUnlessOverBudget(err: unknown): never[] {
  if (err instanceof OverBudget) throw err;
  return [];
}

export interface CommandSpec {
  command: string;
  args: string[];
  /** The child's whole environment (see minimalEnv). */
  env: Record<string, string>;
  cwd: string;
}

export interface Offer {
  serverInfo?: { name: string; version: string };
  instructions?: string;
  tools: InspectedTool[];
  prompts: InspectedPrompt[];
  resources: InspectedResource[];
  /** Lines on stdout that were not MCP messages (banners, logs), skipped. */
  junkLines: number;
}

export type RunResult = ({ ok: true } & Offer) | { ok: false; reason: string; junkLines: number };

/** The environment a server runs with: the command search path and throwaway places for its files, nothing else. */
export function minimalEnv(home: string, npmCache: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    npm_config_cache: npmCache,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_yes: 'true',
    // Browser downloads at install time (puppeteer's, playwright's) cannot work here, and listing tools needs none.
    PUPPETEER_SKIP_DOWNLOAD: 'true',
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    NO_COLOR: '1',
  };
}

/** Kills the child's process group: the child and everything it started. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** The SDK's stdio framing over a child we spawned ourselves (the SDK's own stdio transport cannot run a detached
 *  group): newline-delimited JSON-RPC, non-MCP lines skipped and counted, stdout bounded. */
class ChildStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  junkLines = 0;
  private readonly buffer: ReadBuffer;
  private bytes = 0;

  constructor(
    private readonly child: ChildProcess,
    private readonly limits: RunLimits,
    private readonly fail: (reason: string) => void,
  ) {
    this.buffer = new ReadBuffer({ maxBufferSize: limits.maxStdoutBytes });
  }

  async start(): Promise<void> {
    this.child.stdout!.on('data', (chunk: Buffer) => {
      this.bytes += chunk.length;
      if (this.bytes > this.limits.maxStdoutBytes)
        return this.fail(`it wrote more than ${this.limits.maxStdoutBytes} bytes to stdout`);
      try {
        this.buffer.append(chunk);
      } catch {
        return this.fail(`it wrote a line longer than ${this.limits.maxStdoutBytes} bytes`);
      }
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch {
          this.junkLines++;
          continue;
        }
        if (!message) break;
        this.onmessage?.(message);
      }
    });
    this.child.on('close', () => this.onclose?.());
    // A write to a server that has already exited (or been killed at the time limit) fails with EPIPE; the
    // outcome is reported through its exit and the time limit, so the stream's error must not crash the run.
    this.child.stdin?.on('error', () => {});
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.child.stdin?.writable) this.child.stdin.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    killGroup(this.child);
  }
}

/** Follows a list's cursor, up to MAX_PAGES pages. */
async function allPages<T>(page: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const r = await page(cursor);
    out.push(...r.items);
    if (!r.nextCursor) break;
    cursor = r.nextCursor;
  }
  return out;
}

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
const definedOnly = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** What a failed server said last: its last line that reads like an error, else its last line. */
function lastWordsOf(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^npm (notice|warn)/i.test(l));
  const telling = lines.filter((l) => /error|required|missing|not set|not found|please|provide/i.test(l));
  return (telling[telling.length - 1] ?? lines[lines.length - 1] ?? '').slice(0, 300);
}

/** What a connected client's server offers: its tools, prompts and resources (every page, as its capabilities
 *  advertise), its name and instructions, each request within `options().timeout` and all the lists' answers within
 *  `maxBytes` (OverBudget past it). Used over stdio and over a remote's transport (remote.ts). */
export async function offerOf(
  client: Client,
  options: () => { timeout: number },
  maxBytes: number,
): Promise<Omit<Offer, 'junkLines'>> {
  const caps = client.getServerCapabilities() ?? {};
  const count = budget(maxBytes);
  /** Every page of one of the server's lists, within the deadline. */
  const listAll = <S extends AnySchema, T>(
    method: string,
    schema: S,
    items: (r: SchemaOutput<S>) => T[],
  ): Promise<T[]> =>
    allPages(async (cursor) => {
      const r = await client.request({ method, params: cursor ? { cursor } : {} }, schema, options());
      count(r);
      return { items: items(r), nextCursor: (r as { nextCursor?: string }).nextCursor };
    });
  const tools = caps.tools ? await listAll('tools/list', ListToolsResultSchema, (r) => r.tools) : [];
  // Tools are what the page is about: a server whose prompt or resource list fails (one that reads its
  // resources from a database it cannot reach) still has its tools listed.
  const prompts = caps.prompts
    ? await listAll('prompts/list', ListPromptsResultSchema, (r) => r.prompts).catch(noneUnlessOverBudget)
    : [];
  const resources = caps.resources
    ? await listAll('resources/list', ListResourcesResultSchema, (r) => r.resources).catch(noneUnlessOverBudget)
    : [];
  const info = client.getServerVersion();
  return {
    serverInfo: info ? { name: info.name, version: info.version } : undefined,
    instructions: text(client.getInstructions()),
    tools: tools.map((t) =>
      definedOnly({
        name: t.name,
        title: text(t.title) ?? text(t.annotations?.title),
        description: text(t.description),
        inputSchema: t.inputSchema as InspectedTool['inputSchema'],
      }),
    ),
    prompts: prompts.map((p) =>
      definedOnly({
        name: p.name,
        title: text(p.title),
        description: text(p.description),
        arguments: p.arguments?.map((a) =>
          definedOnly({ name: a.name, description: text(a.description), required: a.required }),
        ),
      }),
    ),
    resources: resources.map((r) =>
      definedOnly({
        uri: r.uri,
        name: r.name,
        title: text(r.title),
        description: text(r.description),
        mimeType: text(r.mimeType),
      }),
    ),
  };
}

/** Starts the command and inspects the MCP server it runs; the process group is gone when this resolves. */
export async function inspectCommand(
  spec: CommandSpec,
  limits: RunLimits = DEFAULT_LIMITS,
  onSpawn?: (pid: number) => void,
): Promise<RunResult> {
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: spec.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (child.pid !== undefined) onSpawn?.(child.pid);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-limits.keptStderrBytes);
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));

  let failed: ((reason: string) => void) | undefined;
  const failure = new Promise<never>((_, reject) => {
    failed = (reason) => reject(new Error(reason));
  });
  const fail = (reason: string) => failed?.(reason);
  child.once('error', (err) => fail(`it could not be started: ${err.message}`));
  child.once('close', (code, signal) => fail(`it exited (${signal ?? `code ${code}`}) before answering`));
  const timer = setTimeout(
    () => fail(`it gave no complete answer within ${Math.round(limits.timeoutMs / 1000)} s`),
    limits.timeoutMs,
  );

  const transport = new ChildStdioTransport(child, limits, fail);
  const client = new Client({ name: 'aitools-inspector', version: '1.0.0' });
  const deadline = Date.now() + limits.timeoutMs;
  const options = () => ({ timeout: Math.max(1, deadline - Date.now()) });
  const exchange = async (): Promise<Offer> => {
    await client.connect(transport, options());
    return { ...(await offerOf(client, options, limits.maxStdoutBytes)), junkLines: transport.junkLines };
  };

  try {
    const offer = await Promise.race([exchange(), failure]);
    return { ok: true, ...offer, junkLines: transport.junkLines };
  } catch (err) {
    const lastWords = lastWordsOf(stderr);
    const reason = err instanceof Error ? err.message : String(err);
    return { ok: false, reason: lastWords ? `${reason}: ${lastWords}` : reason, junkLines: transport.junkLines };
  } finally {
    clearTimeout(timer);
    failed = undefined;
    killGroup(child);
    await client.close().catch(() => undefined);
    await exited;
  }
}
