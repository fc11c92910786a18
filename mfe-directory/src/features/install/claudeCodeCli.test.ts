// @vitest-environment node
/**
 * Every `claude mcp add` command on the site, run through the real Claude Code CLI (the npm package, offline, with a
 * throwaway HOME), for every seeded server, both systems, with and without the optional settings. The config the CLI
 * writes must hold exactly the entry the Cursor snippet of the same remote describes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'shell-quote';
import type { ServerJson } from '@aitools/contracts/mcp';
import seed from '../../../../api/data/mcp-servers.json';
import { installSnippets, serverKey, type Os, type Snippet } from '@aitools/contracts/installSnippets';
import { claudeHome, type ClaudeHome } from '../../../test/claudeCodeCli';

const records = seed as unknown as Record<string, ServerJson>;
const homes: ClaudeHome[] = [];
afterAll(() => Promise.all(homes.map((h) => h.remove())));

/** The shell words of a command; an operator, glob or comment (anything but a plain word) fails the test. */
function words(code: string): string[] {
  const parsed = parse(code);
  for (const w of parsed)
    if (typeof w !== 'string') throw new Error(`not a plain word in ${code}: ${JSON.stringify(w)}`);
  return parsed as string[];
}

/** Runs the command's arguments through the CLI in a fresh project with a fresh HOME; the server entries it wrote. */
async function claudeMcpAdd(code: string): Promise<Record<string, unknown>> {
  const [claude, ...args] = words(code);
  expect(claude).toBe('claude');
  const home = await claudeHome();
  homes.push(home);
  try {
    await home.claude(args);
  } catch (err) {
    const { stderr, stdout } = err as { stderr?: string; stdout?: string };
    throw new Error(`the CLI refused: ${code}\n${stderr || stdout}`, { cause: err });
  }
  return home.projectServers();
}

/** What a Claude Code snippet means: the Cursor entry of the same remote and system, typed as VS Code types it. */
function meaning(all: Snippet[], snippet: Snippet, optional: boolean): Record<string, unknown> {
  const same = (client: string) => all.find((s) => s.client === client && s.variant?.id === snippet.variant?.id)!;
  const code = (s: Snippet) => JSON.parse(optional ? s.withOptional!.code : s.code);
  const [[key, cursor]] = Object.entries(code(same('cursor')).mcpServers as Record<string, Record<string, unknown>>);
  const type = (Object.values(code(same('vscode')).servers)[0] as { type: string }).type;
  return { [key]: type === 'stdio' ? { type, env: {}, ...cursor } : { type, ...cursor } };
}

/** Runs promises two at a time (the machine has two cores). */
async function inPairs<T>(items: T[], work: (item: T) => Promise<void>) {
  const queue = [...items];
  await Promise.all(
    [0, 1].map(async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

describe('Claude Code: the real CLI accepts every generated command', () => {
  const cases = Object.keys(records).flatMap((slug) =>
    (['posix', 'windows'] as Os[]).flatMap((os) => {
      const all = installSnippets(records[slug], serverKey(slug), os);
      return all
        .filter((s) => s.client === 'claude-code')
        .flatMap((s) => [
          { slug, os, all, snippet: s, optional: false },
          ...(s.withOptional ? [{ slug, os, all, snippet: s, optional: true }] : []),
        ]);
    }),
  );

  it('covers every seeded server that names something to install, on both systems', () => {
    const covered = new Set(cases.map((c) => c.slug));
    const installable = Object.keys(records).filter(
      (slug) => installSnippets(records[slug], serverKey(slug)).length > 0,
    );
    expect([...covered].sort()).toEqual(installable.sort());
    expect(installable.length).toBeGreaterThanOrEqual(40);
    // Cloudflare's three remotes are three commands on each system; mcp-atlassian's optional settings are a fourth kind.
    expect(cases.filter((c) => c.slug === 'cloudflare-mcp-server' && c.os === 'posix')).toHaveLength(3);
    expect(cases.some((c) => c.slug === 'mcp-atlassian-mcp-server' && c.optional)).toBe(true);
  });

  it('writes the entry each command means', { timeout: 240_000 }, async () => {
    const failures: string[] = [];
    await inPairs(cases, async ({ slug, os, all, snippet, optional }) => {
      const code = optional ? snippet.withOptional!.code : snippet.code;
      // cmd and PowerShell give single quotes no meaning: a Windows command never relies on them.
      if (os === 'windows' && code.includes("'")) failures.push(`${slug} (${os}): single quotes in ${code}`);
      try {
        const written = await claudeMcpAdd(code);
        const expected = meaning(all, snippet, optional);
        if (JSON.stringify(written) !== JSON.stringify(expected))
          expect(written, `${slug} ${os} ${code}`).toEqual(expected);
      } catch (err) {
        failures.push(
          `${slug} (${os}${optional ? ', optional settings' : ''}): ${(err as Error).message.split('\n').slice(0, 3).join(' / ')}`,
        );
      }
    });
    expect(failures, `${failures.length} of ${cases.length} commands failed`).toEqual([]);
  });
});
