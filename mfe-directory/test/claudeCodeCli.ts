/**
 * The real Claude Code CLI (the npm package, a dev dependency of this package), run offline in a throwaway HOME with
 * an empty project folder: what the install snippets' tests (src/features/install/claudeCodeCli.test.ts) and the
 * site's MCP e2e spec (tests/e2e/specs/mcp-server.spec.ts) both run their `claude mcp …` commands through.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// The package's bin is its native binary, put in place by its install step.
const CLAUDE = join(
  createRequire(import.meta.url).resolve('@anthropic-ai/claude-code/package.json'),
  '..',
  'bin',
  'claude.exe',
);
const run = promisify(execFile);

export interface ClaudeHome {
  home: string;
  /** The folder the CLI runs in (its project-scoped settings are keyed by it). */
  project: string;
  /** Runs the CLI with these arguments in the project; rejects when it exits non-zero. */
  claude(args: string[], timeoutMs?: number): Promise<{ stdout: string; stderr: string }>;
  /** The entries `claude mcp add` wrote for the project, from the CLI's own config file. */
  projectServers(): Promise<Record<string, unknown>>;
  remove(): Promise<void>;
}

/** A fresh HOME and project; nothing of the machine's own settings or network reaches the CLI. */
export async function claudeHome(): Promise<ClaudeHome> {
  const home = await mkdtemp(join(tmpdir(), 'claude-cli-'));
  const project = join(home, 'project');
  await mkdir(project);
  const env = {
    HOME: home,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  return {
    home,
    project,
    claude: (args, timeoutMs = 30_000) => run(CLAUDE, args, { cwd: project, env, timeout: timeoutMs }),
    async projectServers() {
      const config = JSON.parse(await readFile(join(home, '.claude.json'), 'utf8')) as {
        projects: Record<string, { mcpServers: Record<string, unknown> }>;
      };
      return config.projects[project]!.mcpServers;
    },
    remove: () => rm(home, { recursive: true, force: true }),
  };
}
