import { describe, expect, it } from 'vitest';
import type { ServerJson } from '@aitools/contracts/mcp';
import seed from '../../../../api/data/mcp-servers.json';
import {
  base64Utf8,
  differsOnWindows,
  installSnippets,
  serverKey,
  shellQuote,
  windowsQuote,
  type ClientId,
  type Snippet,
} from '@aitools/contracts/installSnippets';

const records = seed as unknown as Record<string, ServerJson>;
const snippet = (slug: string, client: ClientId): Snippet => {
  const s = installSnippets(records[slug], serverKey(slug)).find((x) => x.client === client);
  if (!s) throw new Error(`no ${client} snippet for ${slug}`);
  return s;
};
const parsed = (slug: string, client: ClientId) => JSON.parse(snippet(slug, client).code);
const ALL_SLUGS = Object.keys(records);

// Three kinds of seeded servers: an npm package over stdio, a docker image, a vendor-hosted remote.
const NPM = 'brave-search-mcp-server';
const DOCKER = 'grafana-mcp-server';
const REMOTE = 'linear-mcp-server';
const REMOTE_WITH_HEADER = 'github-mcp-server';

describe('Claude Desktop (claude_desktop_config.json, mcpServers)', () => {
  it('runs an npm package with npx and the secret as a placeholder', () => {
    expect(parsed(NPM, 'claude-desktop')).toEqual({
      mcpServers: {
        'brave-search': {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-brave-search'],
          env: { BRAVE_API_KEY: '<BRAVE_API_KEY>' },
        },
      },
    });
    expect(snippet(NPM, 'claude-desktop').files).toEqual([
      { system: 'macOS', path: '~/Library/Application Support/Claude/claude_desktop_config.json' },
      { system: 'Windows', path: '%APPDATA%\\Claude\\claude_desktop_config.json' },
    ]);
  });

  it('runs a docker image with docker run -i --rm -e NAME', () => {
    expect(parsed(DOCKER, 'claude-desktop')).toEqual({
      mcpServers: {
        grafana: {
          command: 'docker',
          args: [
            'run',
            '-i',
            '--rm',
            '-e',
            'GRAFANA_URL',
            '-e',
            'GRAFANA_SERVICE_ACCOUNT_TOKEN',
            'docker.io/mcp/grafana',
            '-t',
            'stdio',
          ],
          env: { GRAFANA_URL: '<GRAFANA_URL>', GRAFANA_SERVICE_ACCOUNT_TOKEN: '<GRAFANA_SERVICE_ACCOUNT_TOKEN>' },
        },
      },
    });
  });

  it('bridges a remote-only server through mcp-remote and names the connector way', () => {
    const s = snippet(REMOTE, 'claude-desktop');
    expect(JSON.parse(s.code)).toEqual({
      mcpServers: { linear: { command: 'npx', args: ['-y', 'mcp-remote', 'https://mcp.linear.app/mcp'] } },
    });
    expect(s.note).toMatch(/custom connector/);
  });

  it('passes a remote header through env, as mcp-remote documents', () => {
    const atlassian = installSnippets({ ...records['atlassian-mcp-server'] }, 'atlassian').find(
      (x) => x.client === 'claude-desktop',
    )!;
    expect(JSON.parse(atlassian.code).mcpServers.atlassian.args).toEqual([
      '-y',
      'mcp-remote',
      'https://mcp.atlassian.com/v1/sse',
      '--transport',
      'sse-only',
    ]);
    const withHeader = installSnippets(
      { name: 'io.example/x', description: 'x', remotes: [records[REMOTE_WITH_HEADER].remotes![0]] },
      'x',
    )[0];
    expect(JSON.parse(withHeader.code).mcpServers.x).toEqual({
      command: 'npx',
      args: ['-y', 'mcp-remote', 'https://api.githubcopilot.com/mcp/', '--header', 'Authorization:${AUTH_HEADER}'],
      env: { AUTH_HEADER: 'Bearer <github_token>' },
    });
  });
});

describe('Cursor (.cursor/mcp.json, mcpServers, deeplink)', () => {
  it('writes command/args/env for a package and url/headers for a remote', () => {
    expect(parsed(NPM, 'cursor')).toEqual({
      mcpServers: {
        'brave-search': {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-brave-search'],
          env: { BRAVE_API_KEY: '<BRAVE_API_KEY>' },
        },
      },
    });
    expect(parsed(DOCKER, 'cursor').mcpServers.grafana.command).toBe('docker');
    expect(parsed(REMOTE, 'cursor')).toEqual({ mcpServers: { linear: { url: 'https://mcp.linear.app/mcp' } } });
    expect(parsed(REMOTE_WITH_HEADER, 'cursor')).toEqual({
      mcpServers: {
        github: { url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer <github_token>' } },
      },
    });
  });

  it('links cursor://anysphere.cursor-deeplink/mcp/install with the entry as base64 JSON', () => {
    const link = new URL(snippet(NPM, 'cursor').link!.href);
    expect(link.protocol).toBe('cursor:');
    expect(link.host + link.pathname).toBe('anysphere.cursor-deeplink/mcp/install');
    expect(link.searchParams.get('name')).toBe('brave-search');
    const config = JSON.parse(Buffer.from(link.searchParams.get('config')!, 'base64').toString('utf8'));
    expect(config).toEqual(parsed(NPM, 'cursor').mcpServers['brave-search']);
  });
});

describe('VS Code (.vscode/mcp.json, servers, inputs)', () => {
  it('types a package as stdio and asks for secrets with a password prompt', () => {
    expect(parsed(NPM, 'vscode')).toEqual({
      inputs: [{ type: 'promptString', id: 'brave_api_key', description: 'Brave Search API key', password: true }],
      servers: {
        'brave-search': {
          type: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-brave-search'],
          env: { BRAVE_API_KEY: '${input:brave_api_key}' },
        },
      },
    });
  });

  it('prompts for a docker image`s values, the token as a password only', () => {
    const doc = parsed(DOCKER, 'vscode');
    expect(doc.inputs).toEqual([
      { type: 'promptString', id: 'grafana_url', description: 'URL of the Grafana instance' },
      {
        type: 'promptString',
        id: 'grafana_service_account_token',
        description: 'Grafana service account token',
        password: true,
      },
    ]);
    expect(doc.servers.grafana).toEqual({
      type: 'stdio',
      command: 'docker',
      args: [
        'run',
        '-i',
        '--rm',
        '-e',
        'GRAFANA_URL',
        '-e',
        'GRAFANA_SERVICE_ACCOUNT_TOKEN',
        'docker.io/mcp/grafana',
        '-t',
        'stdio',
      ],
      env: {
        GRAFANA_URL: '${input:grafana_url}',
        GRAFANA_SERVICE_ACCOUNT_TOKEN: '${input:grafana_service_account_token}',
      },
    });
  });

  it('types a remote as http with its headers from inputs', () => {
    expect(parsed(REMOTE, 'vscode')).toEqual({
      servers: { linear: { type: 'http', url: 'https://mcp.linear.app/mcp' } },
    });
    expect(parsed(REMOTE_WITH_HEADER, 'vscode')).toEqual({
      inputs: [
        { type: 'promptString', id: 'github_token', description: 'GitHub personal access token', password: true },
      ],
      servers: {
        github: {
          type: 'http',
          url: 'https://api.githubcopilot.com/mcp/',
          headers: { Authorization: 'Bearer ${input:github_token}' },
        },
      },
    });
  });

  it('links vscode:mcp/install with the named entry as JSON', () => {
    const href = snippet(REMOTE, 'vscode').link!.href;
    expect(href.startsWith('vscode:mcp/install?')).toBe(true);
    expect(JSON.parse(decodeURIComponent(href.slice('vscode:mcp/install?'.length)))).toEqual({
      name: 'linear',
      type: 'http',
      url: 'https://mcp.linear.app/mcp',
    });
  });
});

describe('Claude Code (claude mcp add)', () => {
  // --env and --header take several values: the name goes first, the headers after the URL (claudeCodeCli.test.ts
  // runs every command through the CLI itself).
  it('adds a package over stdio: the name first, then --env, and the command after --', () => {
    expect(snippet(NPM, 'claude-code').code).toBe(
      "claude mcp add brave-search --transport stdio --env 'BRAVE_API_KEY=<BRAVE_API_KEY>' -- npx -y @modelcontextprotocol/server-brave-search",
    );
    expect(snippet(DOCKER, 'claude-code').code).toBe(
      "claude mcp add grafana --transport stdio --env 'GRAFANA_URL=<GRAFANA_URL>' --env 'GRAFANA_SERVICE_ACCOUNT_TOKEN=<GRAFANA_SERVICE_ACCOUNT_TOKEN>' -- docker run -i --rm -e GRAFANA_URL -e GRAFANA_SERVICE_ACCOUNT_TOKEN docker.io/mcp/grafana -t stdio",
    );
  });

  it('adds a remote with --transport http and the headers after the URL', () => {
    expect(snippet(REMOTE, 'claude-code').code).toBe(
      'claude mcp add linear --transport http https://mcp.linear.app/mcp',
    );
    expect(snippet(REMOTE_WITH_HEADER, 'claude-code').code).toBe(
      "claude mcp add github --transport http https://api.githubcopilot.com/mcp/ --header 'Authorization: Bearer <github_token>'",
    );
    expect(snippet('atlassian-mcp-server', 'claude-code').code).toBe(
      'claude mcp add atlassian --transport sse https://mcp.atlassian.com/v1/sse',
    );
  });
});

describe('every seeded server', () => {
  it('gets the four clients` snippets unless its record names nothing to install', () => {
    const without = ALL_SLUGS.filter((slug) => installSnippets(records[slug], serverKey(slug)).length === 0);
    expect(without).toEqual(['serena-mcp-server']);
    for (const slug of ALL_SLUGS.filter((s) => !without.includes(s))) {
      expect(new Set(installSnippets(records[slug], serverKey(slug)).map((s) => s.client)), slug).toEqual(
        new Set(['claude-desktop', 'cursor', 'vscode', 'claude-code']),
      );
    }
  });

  it('runs each package unpinned although its record names the release checked: the install follows releases', () => {
    // How each runner would pin a release: npx <pkg>@1.0, uvx <pkg>==1.0 or <pkg>@1.0, docker <image>:1.0.
    const pins: Record<string, (id: string) => string[]> = {
      npm: (id) => [`${id}@`],
      pypi: (id) => [`${id}==`, `${id}@`],
      oci: (id) => [`${id}:`],
    };
    const pinnedInRecord: Record<string, number> = {};
    for (const slug of ALL_SLUGS)
      for (const pkg of records[slug].packages ?? []) {
        if (!pkg.version) continue;
        pinnedInRecord[pkg.registryType] = (pinnedInRecord[pkg.registryType] ?? 0) + 1;
        const snippets = installSnippets(records[slug], serverKey(slug));
        // A server may offer a remote as well: its first package is run by at least one snippet; no package is
        // pinned by any.
        if (pkg === records[slug].packages![0])
          expect(
            snippets.some((s) => s.code.includes(pkg.identifier)),
            slug,
          ).toBe(true);
        for (const s of snippets)
          for (const pin of pins[pkg.registryType]!(pkg.identifier))
            expect(s.code, `${slug} ${s.client}`).not.toContain(pin);
      }
    expect(pinnedInRecord).toEqual({ npm: 26, pypi: 9, oci: 3 });
  });

  it('passes no secret as a process argument: secrets go through the environment or the client`s prompt', () => {
    // server-postgres reads its connection URL from its arguments only: the one exception, and it says so.
    const argumentOnly = ['postgres-mcp-server'];
    for (const slug of ALL_SLUGS.filter((s) => !argumentOnly.includes(s))) {
      for (const pkg of records[slug].packages ?? []) {
        const secretArgs = [...(pkg.packageArguments ?? []), ...(pkg.runtimeArguments ?? [])].filter(
          (a) => a.isSecret && a.value === undefined,
        );
        expect(secretArgs, `${slug} ${pkg.identifier}`).toEqual([]);
      }
    }
    expect(parsed('stripe-mcp-server', 'claude-desktop').mcpServers.stripe).toEqual({
      command: 'npx',
      args: ['-y', '@stripe/mcp'],
      env: { STRIPE_SECRET_KEY: '<STRIPE_SECRET_KEY>' },
    });
    expect(parsed('sentry-reference-mcp-server', 'claude-desktop').mcpServers['sentry-reference']).toEqual({
      command: 'uvx',
      args: ['mcp-server-sentry'],
      env: { SENTRY_TOKEN: '<SENTRY_TOKEN>' },
    });
  });

  it('never writes a secret value: every secret input becomes a placeholder or a prompt', () => {
    for (const slug of ALL_SLUGS) {
      for (const s of installSnippets(records[slug], serverKey(slug))) {
        for (const pkg of records[slug].packages ?? [])
          for (const e of pkg.environmentVariables ?? [])
            if (e.isSecret && s.code.includes(`"${e.name}"`))
              expect(s.code, `${slug} ${s.client}`).toMatch(
                new RegExp(`"${e.name}": "(<${e.name}>|\\$\\{input:${e.name.toLowerCase()}\\})"`),
              );
      }
    }
  });
});

describe('imported server.json documents', () => {
  it('runs the package unpinned (the install follows its releases) and fills URL variables from their defaults', () => {
    const weather: ServerJson = {
      name: 'io.github.user/local-weather',
      description: 'Local MCP server distributed as an npm package.',
      version: '1.0.0',
      packages: [
        {
          registryType: 'npm',
          identifier: '@modelcontextprotocol/server-weather',
          version: '1.0.0',
          transport: { type: 'stdio' },
          runtimeHint: 'npx',
          packageArguments: [
            { type: 'positional', valueHint: 'config_path' },
            { type: 'named', name: '--port', value: '8080' },
          ],
          environmentVariables: [{ name: 'API_KEY', isSecret: true, isRequired: true }],
        },
      ],
    };
    expect(JSON.parse(installSnippets(weather, 'local-weather')[0].code).mcpServers['local-weather']).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-weather', '--port=8080'],
      env: { API_KEY: '<API_KEY>' },
    });
    const remote: ServerJson = {
      name: 'io.github.user/remote-weather',
      description: 'r',
      remotes: [
        { type: 'streamable-http', url: 'https://{host}/mcp', variables: { host: { default: 'api.example.com' } } },
      ],
    };
    expect(JSON.parse(installSnippets(remote, 'w')[1].code)).toEqual({
      mcpServers: { w: { url: 'https://api.example.com/mcp' } },
    });
  });

  it('reads a docker image named in runtimeArguments (github-mcp-server`s own server.json)', () => {
    const gh: ServerJson = {
      name: 'io.github.github/github-mcp-server',
      description: 'GitHub',
      packages: [
        {
          registryType: 'oci',
          identifier: 'ghcr.io/github/github-mcp-server:0.1.0',
          transport: { type: 'stdio' },
          runtimeArguments: [
            { type: 'positional', value: 'run', isRequired: true },
            { type: 'named', name: '-i', value: 'true', format: 'boolean', isRequired: true },
            { type: 'named', name: '--rm', value: 'true', format: 'boolean' },
            {
              type: 'named',
              name: '-e',
              value: 'GITHUB_PERSONAL_ACCESS_TOKEN={token}',
              isRequired: true,
              variables: { token: { isRequired: true, isSecret: true } },
            },
            {
              type: 'positional',
              valueHint: 'image_name',
              value: 'ghcr.io/github/github-mcp-server',
              isRequired: true,
            },
          ],
        },
      ],
    };
    // The token goes through the environment: docker's -e NAME passes it on without it on any command line.
    expect(JSON.parse(installSnippets(gh, 'github')[0].code).mcpServers.github).toEqual({
      command: 'docker',
      args: ['run', '-i', '--rm', '-e', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'ghcr.io/github/github-mcp-server'],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: '<token>' },
    });
    expect(JSON.parse(installSnippets(gh, 'github')[2].code).inputs).toEqual([
      { type: 'promptString', id: 'token', description: 'token', password: true },
    ]);
  });
});

describe('named arguments', () => {
  it('join long flags with = (the registry`s --flag={value}) and keep short ones apart', () => {
    const flags: ServerJson = {
      name: 'io.example/flags',
      description: 'f',
      packages: [
        {
          registryType: 'npm',
          identifier: 'flags',
          transport: { type: 'stdio' },
          packageArguments: [
            { type: 'named', name: '--tools', value: 'all' },
            { type: 'named', name: '-p', value: '8080' },
          ],
        },
      ],
    };
    expect(JSON.parse(installSnippets(flags, 'flags')[0].code).mcpServers.flags).toEqual({
      command: 'npx',
      args: ['-y', 'flags', '--tools=all', '-p', '8080'],
    });
    const pg = JSON.parse(installSnippets(records['postgres-mcp-pro-mcp-server'], 'pg')[0].code).mcpServers.pg;
    expect(pg).toEqual({
      command: 'uvx',
      args: ['postgres-mcp', '--access-mode=unrestricted'],
      env: { DATABASE_URI: '<DATABASE_URI>' },
    });
  });
});

describe('Windows', () => {
  const windows = (slug: string, client: ClientId) =>
    installSnippets(records[slug], serverKey(slug), 'windows').find((x) => x.client === client)!;

  it('runs npx through cmd /c in every client, the bridge included', () => {
    const entry = {
      command: 'cmd',
      args: ['/c', 'npx', '-y', '@modelcontextprotocol/server-brave-search'],
      env: { BRAVE_API_KEY: '<BRAVE_API_KEY>' },
    };
    expect(JSON.parse(windows(NPM, 'claude-desktop').code).mcpServers['brave-search']).toEqual(entry);
    expect(JSON.parse(windows(NPM, 'cursor').code).mcpServers['brave-search']).toEqual(entry);
    expect(JSON.parse(windows(NPM, 'vscode').code).servers['brave-search']).toMatchObject({
      type: 'stdio',
      command: 'cmd',
      args: entry.args,
    });
    expect(windows(NPM, 'claude-code').code).toBe(
      'claude mcp add brave-search --transport stdio --env "BRAVE_API_KEY=<BRAVE_API_KEY>" -- cmd /c npx -y @modelcontextprotocol/server-brave-search',
    );
    expect(JSON.parse(windows(REMOTE, 'claude-desktop').code).mcpServers.linear.args).toEqual([
      '/c',
      'npx',
      '-y',
      'mcp-remote',
      'https://mcp.linear.app/mcp',
    ]);
  });

  it('leaves docker, uvx and remote entries as they are', () => {
    for (const slug of [DOCKER, 'time-mcp-server', REMOTE]) {
      for (const client of ['cursor', 'vscode', 'claude-code'] as ClientId[])
        expect(windows(slug, client).code.replace(/"/g, "'"), `${slug} ${client}`).toBe(
          snippet(slug, client).code.replace(/"/g, "'"),
        );
    }
    // The choice is offered where anything differs: a command that quotes differently counts.
    expect(differsOnWindows(records['fetch-mcp-server'], 'fetch')).toBe(false);
    expect(differsOnWindows(records[DOCKER], 'grafana')).toBe(true);
    expect(differsOnWindows(records[NPM], 'brave-search')).toBe(true);
  });

  it('quotes for cmd and PowerShell with double quotes, never single ones', () => {
    expect(windowsQuote('npx')).toBe('npx');
    expect(windowsQuote('A=<B>')).toBe('"A=<B>"');
    expect(windowsQuote('Authorization: Bearer <t>')).toBe('"Authorization: Bearer <t>"');
  });
});

describe('every remote a server offers', () => {
  it('gets its own snippet per client, labelled, with its own key when the hosts differ', () => {
    const cloudflare = installSnippets(records['cloudflare-mcp-server'], 'cloudflare').filter(
      (s) => s.client === 'claude-code',
    );
    expect(cloudflare.map((s) => s.code)).toEqual([
      'claude mcp add cloudflare-bindings --transport http https://bindings.mcp.cloudflare.com/mcp',
      'claude mcp add cloudflare-observability --transport http https://observability.mcp.cloudflare.com/mcp',
      'claude mcp add cloudflare-docs --transport http https://docs.mcp.cloudflare.com/mcp',
    ]);
    expect(cloudflare.map((s) => s.variant?.label)).toEqual([
      'bindings.mcp.cloudflare.com/mcp (Streamable HTTP)',
      'observability.mcp.cloudflare.com/mcp (Streamable HTTP)',
      'docs.mcp.cloudflare.com/mcp (Streamable HTTP)',
    ]);
    for (const client of ['claude-desktop', 'cursor', 'vscode'] as ClientId[]) {
      expect(
        installSnippets(records['cloudflare-mcp-server'], 'cloudflare').filter((s) => s.client === client),
        client,
      ).toHaveLength(3);
    }
  });

  it('offers the same server`s SSE endpoint after its streamable HTTP one, under the same key', () => {
    const linear = installSnippets(records[REMOTE], 'linear').filter((s) => s.client === 'vscode');
    expect(linear.map((s) => JSON.parse(s.code).servers.linear)).toEqual([
      { type: 'http', url: 'https://mcp.linear.app/mcp' },
      { type: 'sse', url: 'https://mcp.linear.app/sse' },
    ]);
  });
});

describe('optional settings', () => {
  it('stay out of the snippet and come as placeholders in its optional variant (mcp-atlassian`s six variables)', () => {
    const s = snippet('mcp-atlassian-mcp-server', 'claude-desktop');
    expect(JSON.parse(s.code).mcpServers['mcp-atlassian']).toEqual({ command: 'uvx', args: ['mcp-atlassian'] });
    const names = [
      'JIRA_URL',
      'JIRA_USERNAME',
      'JIRA_API_TOKEN',
      'CONFLUENCE_URL',
      'CONFLUENCE_USERNAME',
      'CONFLUENCE_API_TOKEN',
    ];
    expect(s.withOptional?.names).toEqual(names);
    expect(JSON.parse(s.withOptional!.code).mcpServers['mcp-atlassian'].env).toEqual(
      Object.fromEntries(names.map((n) => [n, `<${n}>`])),
    );
    const vscode = JSON.parse(snippet('mcp-atlassian-mcp-server', 'vscode').withOptional!.code);
    expect(vscode.inputs.find((i: { id: string }) => i.id === 'jira_api_token')).toEqual({
      type: 'promptString',
      id: 'jira_api_token',
      description: 'Jira API token',
      password: true,
    });
    expect(snippet('mcp-atlassian-mcp-server', 'claude-code').withOptional!.code).toContain(
      "--env 'JIRA_URL=<JIRA_URL>'",
    );
  });

  it('show an optional default as its value, optional switches and headers too, and nothing when there are none', () => {
    expect(
      JSON.parse(snippet('gitlab-mcp-server', 'cursor').withOptional!.code).mcpServers.gitlab.env.GITLAB_API_URL,
    ).toBe('https://gitlab.com/api/v4');
    expect(JSON.parse(snippet('redis-mcp-server', 'cursor').withOptional!.code).mcpServers.redis.args).toEqual([
      '-y',
      '@modelcontextprotocol/server-redis',
      'redis://localhost:6379',
    ]);
    const supabase = JSON.parse(
      installSnippets({ ...records['supabase-mcp-server'], remotes: [] }, 'supabase')[0].withOptional!.code,
    ).mcpServers.supabase;
    expect(supabase.args).toEqual([
      '-y',
      '@supabase/mcp-server-supabase',
      '--read-only',
      '--project-ref=<project-ref>',
    ]);
    expect(JSON.parse(snippet('context7-mcp-server', 'cursor').withOptional!.code).mcpServers.context7.headers).toEqual(
      { CONTEXT7_API_KEY: '<CONTEXT7_API_KEY>' },
    );
    expect(snippet(NPM, 'cursor').withOptional).toBeUndefined();
  });
});

describe('helpers', () => {
  it('quotes shell words only when needed and encodes UTF-8 as base64', () => {
    expect(shellQuote('npx')).toBe('npx');
    expect(shellQuote('A=<B>')).toBe("'A=<B>'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(Buffer.from(base64Utf8('{"é":1}'), 'base64').toString('utf8')).toBe('{"é":1}');
  });
});
