import type { Tool } from '@aitools/api/contracts/tools';
import type { McpKeyValueInput, ServerJson, ToolDetailExtras } from '@aitools/api/contracts/mcp';
import { installSnippets, serverKey } from './snippets';
import { CopyButton } from './CopyButton';
import './install.css';

/** Every variable and header the server reads, so optional ones left out of the snippets are still documented. */
function settingsOf(server: ServerJson): (McpKeyValueInput & { kind: string })[] {
  const seen = new Set<string>();
  const out: (McpKeyValueInput & { kind: string })[] = [];
  const add = (kind: string, list: McpKeyValueInput[] = []) => {
    for (const s of list) {
      if (seen.has(`${kind}:${s.name}`)) continue;
      seen.add(`${kind}:${s.name}`);
      out.push({ ...s, kind });
    }
  };
  for (const p of server.packages ?? []) add('Environment variable', p.environmentVariables);
  for (const r of server.remotes ?? []) add('HTTP header', r.headers);
  return out;
}

/**
 * "Install" on an MCP server's page: one disclosure per client (Claude Desktop, Cursor, VS Code, Claude Code) with
 * the snippet in <pre><code>, rendered on the server so it works without script; a Copy button joins once script runs.
 */
export function InstallSection({ tool }: { tool: Tool }) {
  const server = (tool as Tool & ToolDetailExtras).mcpServer;
  if (!server) return null;
  const snippets = installSnippets(server, serverKey(tool.slug));
  const settings = settingsOf(server);
  return (
    <section aria-labelledby="mcp-install-title" className="dir-detail__section mcp-install">
      <h2 id="mcp-install-title">Install {tool.name}</h2>
      {snippets.length === 0 ? (
        <p>
          This server's record names no package or hosted endpoint yet; follow the setup guide on{' '}
          <a href={server.websiteUrl ?? server.repository?.url ?? tool.website} target="_blank" rel="noopener noreferrer">
            its website
          </a>
          .
        </p>
      ) : (
        <>
          <p className="mcp-install__lead">
            Choose your client and copy the configuration. Values in angle brackets, like <code>&lt;API_KEY&gt;</code>, are placeholders for your
            own; VS Code asks for them when the server starts.
          </p>
          {snippets.map((s, i) => (
            <details key={s.client} className="mcp-install__client" open={i === 0}>
              <summary>{s.label}</summary>
              {s.files && (
                <p className="mcp-install__files">
                  {s.client === 'claude-code' ? 'Run' : 'Add to'}{' '}
                  {s.files.map((f, j) => (
                    <span key={f.path}>
                      {j > 0 && ' or '}
                      <code>{f.path}</code> ({f.system})
                    </span>
                  ))}
                  :
                </p>
              )}
              {!s.files && <p className="mcp-install__files">Run in a terminal:</p>}
              <div className="mcp-install__code">
                <pre tabIndex={0}>
                  <code data-client={s.client}>{s.code}</code>
                </pre>
                <CopyButton text={s.code} label={`Copy the ${s.label} ${s.language === 'shell' ? 'command' : 'configuration'}`} />
              </div>
              {s.link && (
                <p>
                  <a className="btn btn--primary btn--small" href={s.link.href}>
                    {s.link.label}
                  </a>
                </p>
              )}
              {s.note && <p className="mcp-install__note">{s.note}</p>}
            </details>
          ))}
        </>
      )}
      {settings.length > 0 && (
        <table className="mcp-install__settings">
          <caption>Settings</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Required</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {settings.map((s) => (
              <tr key={`${s.kind}:${s.name}`}>
                <th scope="row">
                  <code>{s.name}</code>
                </th>
                <td>
                  {s.kind}
                  {s.isSecret ? ' (secret)' : ''}
                </td>
                <td>{s.isRequired ? 'Required' : 'Optional'}</td>
                <td>
                  {s.description ?? ''}
                  {s.default ? ` Default: ${s.default}.` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {server.name && (
        <p className="mcp-install__registry">
          Registry name: <code>{server.name}</code>
          {server.version ? ` · version ${server.version}` : ''}
        </p>
      )}
    </section>
  );
}
