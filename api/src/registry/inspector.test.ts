import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectCommand, minimalEnv, type CommandSpec } from './inspector';

const SERVERS = join(import.meta.dirname, 'testdata', 'servers');
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'inspector-test-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const spec = (file: string, ...args: string[]): CommandSpec => ({
  command: process.execPath,
  args: [join(SERVERS, file), ...args],
  env: minimalEnv(join(root, 'home'), join(root, 'npm-cache')),
  cwd: root,
});
// Generous for a loaded machine; the hanging server gets its own short limit.
const limits = { timeoutMs: 15_000, maxStdoutBytes: 256 * 1024, keptStderrBytes: 2048 };

/** Whether a process is still there (a signal 0 reaches it). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50)))
    if (!alive(pid)) return true;
  return !alive(pid);
}

describe('the inspector, against MCP servers written for the tests with the same SDK', () => {
  it('lists the tools (name, title, description, input schema), prompts and resources of a working server', async () => {
    let pid = 0;
    const r = await inspectCommand(spec('working.mjs'), limits, (p) => (pid = p));
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (!r.ok) return;
    expect(r.serverInfo).toEqual({ name: 'test-working', version: '1.2.3' });
    expect(r.tools.map((t) => t.name)).toEqual(['add_numbers', 'env_names']);
    const add = r.tools[0]!;
    expect(add).toMatchObject({ title: 'Add numbers', description: 'Adds two numbers' });
    expect(add.inputSchema).toMatchObject({
      type: 'object',
      required: ['a', 'b'],
      properties: { a: { type: 'number', description: 'First number' }, note: { type: 'string' } },
    });
    expect(r.prompts).toEqual([
      { name: 'greet', description: 'Greets someone', arguments: [{ name: 'who', required: true }] },
    ]);
    expect(r.resources).toEqual([
      { uri: 'test://readme', name: 'readme', description: 'The read-me', mimeType: 'text/plain' },
    ]);
    expect(await goneWithin(pid, 2000)).toBe(true);
  });

  it('gives the server none of the operator`s environment: a throwaway HOME, no secrets', async () => {
    process.env.INSPECTOR_TEST_SECRET_TOKEN = 'do-not-leak';
    try {
      const r = await inspectCommand(spec('working.mjs'), limits);
      if (!r.ok) throw new Error(r.reason);
      const described = r.tools.find((t) => t.name === 'env_names')!.description!;
      expect(described).not.toMatch(/SECRET|do-not-leak/);
      expect(described).toContain(`HOME=${join(root, 'home')}`);
      const names = /^Environment: (\S*)/.exec(described)![1]!.split(',');
      expect(
        names.every(
          (n) =>
            ['PATH', 'HOME', 'NO_COLOR', 'PUPPETEER_SKIP_DOWNLOAD', 'PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD'].includes(n) ||
            n.startsWith('npm_config_'),
        ),
      ).toBe(true);
    } finally {
      delete process.env.INSPECTOR_TEST_SECRET_TOKEN;
    }
  });

  it('skips junk lines a server prints on stdout and still reads its answers', async () => {
    const r = await inspectCommand(spec('working.mjs', '--junk'), limits);
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(r.junkLines).toBeGreaterThanOrEqual(2);
    if (r.ok) expect(r.tools).toHaveLength(2);
  });

  it('times out a server that never answers and kills its whole process group, grandchild included', async () => {
    let pid = 0;
    const r = await inspectCommand(spec('hanging.mjs'), { ...limits, timeoutMs: 1500 }, (p) => (pid = p));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toMatch(/no complete answer within 2 s/);
    const grandchild = Number(/grandchild (\d+)/.exec(r.reason)?.[1]);
    expect(grandchild).toBeGreaterThan(0);
    expect(await goneWithin(pid, 2000)).toBe(true);
    expect(await goneWithin(grandchild, 2000)).toBe(true);
  });

  it('stops a server that floods stdout at the output bound', async () => {
    let pid = 0;
    const r = await inspectCommand(spec('flood.mjs'), limits, (p) => (pid = p));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/more than 262144 bytes/);
    expect(await goneWithin(pid, 2000)).toBe(true);
  });

  it('reports a command that cannot start or exits at once', async () => {
    const missing = await inspectCommand({ ...spec('working.mjs'), command: join(root, 'no-such-binary') }, limits);
    expect(missing).toMatchObject({ ok: false, reason: expect.stringMatching(/could not be started/) });
    const exits = await inspectCommand(
      {
        ...spec('working.mjs'),
        args: ['-e', 'console.error("BRAVE_API_KEY environment variable is required"); process.exit(1)'],
      },
      limits,
    );
    expect(exits).toMatchObject({
      ok: false,
      reason: expect.stringMatching(
        /exited \(code 1\) before answering: BRAVE_API_KEY environment variable is required/,
      ),
    });
  });
});
