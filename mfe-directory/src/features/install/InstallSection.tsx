import { useEffect, useState, type MouseEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { readStorage, writeStorage } from '@aitools/platform';
import type { Tool } from '@aitools/contracts/tools';
import type { McpKeyValueInput, ServerJson, ToolDetailExtras } from '@aitools/contracts/mcp';
import {
  differsOnWindows,
  installSnippets,
  OS_CHOICES,
  readOs,
  serverKey,
  type Os,
  type Snippet,
} from '@aitools/contracts/installSnippets';
import { CopyButton } from './CopyButton';
import { plainClick } from '../../shared/plainClick';
import './install.css';

/** Where the browser keeps the visitor's system choice for the next server page. */
export const OS_STORAGE_KEY = 'mcp-install-os';

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
 * The system choice: real links (`?os=windows`), so without script the server renders the other snippets. With
 * script the choice applies in place, goes into the address and is remembered in local storage for the next page.
 */
function OsChoice({ os, onChoose }: { os: Os; onChoose: (os: Os, href: string) => void }) {
  const { pathname } = useLocation();
  return (
    <p className="mcp-install__os" role="group" aria-labelledby="mcp-install-os-label">
      <span id="mcp-install-os-label">Your system:</span>
      {OS_CHOICES.map((c) => {
        const href = `${pathname}?os=${c.os}#mcp-install-title`;
        const choose = (e: MouseEvent) => {
          if (!plainClick(e)) return;
          e.preventDefault();
          onChoose(c.os, href);
        };
        return (
          <a
            key={c.os}
            href={href}
            rel="nofollow"
            className="mcp-install__os-choice"
            aria-current={c.os === os ? 'true' : undefined}
            onClick={choose}
          >
            {c.label}
          </a>
        );
      })}
    </p>
  );
}

/** The system the page shows: the address's `?os=` (the server renders it), else the one this browser remembers. */
function useOs(): [Os, (os: Os, href: string) => void] {
  const { search } = useLocation();
  const inAddress = new URLSearchParams(search).get('os');
  const [os, setOs] = useState<Os>(readOs(inAddress));
  useEffect(() => {
    if (inAddress) setOs(readOs(inAddress));
    else if (readStorage(OS_STORAGE_KEY)) setOs(readOs(readStorage(OS_STORAGE_KEY)));
  }, [inAddress]);
  const choose = (next: Os, href: string) => {
    setOs(next);
    writeStorage(OS_STORAGE_KEY, next);
    // The address says what the page shows (a reload or a shared link keeps it); the router's own state is kept.
    window.history.replaceState(window.history.state, '', href.replace(/#.*$/, window.location.hash));
  };
  return [os, choose];
}

const kindOf = (s: Snippet) => (s.language === 'shell' ? 'command' : 'configuration');

function SnippetCode({ snippet, code, optional }: { snippet: Snippet; code: string; optional?: boolean }) {
  const what = `${snippet.label} ${kindOf(snippet)}${optional ? ' with optional settings' : ''}${snippet.variant ? ` for ${snippet.variant.label}` : ''}`;
  return (
    <div className="mcp-install__code">
      <pre tabIndex={0} aria-label={`The ${what}`}>
        <code data-client={snippet.client} data-variant={snippet.variant?.id} data-optional={optional ? '' : undefined}>
          {code}
        </code>
      </pre>
      <CopyButton text={code} label={`Copy the ${what}`} />
    </div>
  );
}

function ClientSnippet({ snippet }: { snippet: Snippet }) {
  return (
    <>
      {snippet.variant && <h3 className="mcp-install__variant">{snippet.variant.label}</h3>}
      <SnippetCode snippet={snippet} code={snippet.code} />
      {snippet.link && (
        <p>
          <a className="btn btn--primary btn--small" href={snippet.link.href}>
            {snippet.link.label}
          </a>
        </p>
      )}
      {snippet.note && <p className="mcp-install__note">{snippet.note}</p>}
      {snippet.withOptional && (
        <details className="mcp-install__optional">
          <summary>With optional settings ({snippet.withOptional.names.length})</summary>
          <p className="mcp-install__note">
            The same with the optional settings (
            {snippet.withOptional.names.map((n, i) => (
              <span key={n}>
                {i > 0 && ', '}
                <code>{n}</code>
              </span>
            ))}
            ) as placeholders: fill in the ones you use and delete the others.
          </p>
          <SnippetCode snippet={snippet} code={snippet.withOptional.code} optional />
        </details>
      )}
    </>
  );
}

/** Snippets grouped by client, in order. */
function byClient(snippets: Snippet[]): Snippet[][] {
  const groups = new Map<string, Snippet[]>();
  for (const s of snippets) groups.set(s.client, [...(groups.get(s.client) ?? []), s]);
  return [...groups.values()];
}

/**
 * "Install" on an MCP server's page: one disclosure per client (Claude Desktop, Cursor, VS Code, Claude Code) with
 * the snippet in <pre><code> (one per remote when the server offers several), rendered on the server so it works
 * without script; a Copy button joins once script runs. Where Windows needs other snippets, a system choice leads.
 */
export function InstallSection({ tool }: { tool: Tool }) {
  const [os, chooseOs] = useOs();
  const server = (tool as Tool & ToolDetailExtras).mcpServer;
  if (!server) return null;
  const key = serverKey(tool.slug);
  const clients = byClient(installSnippets(server, key, os));
  const settings = settingsOf(server);
  return (
    <section aria-labelledby="mcp-install-title" className="dir-detail__section mcp-install">
      <h2 id="mcp-install-title">Install {tool.name}</h2>
      {clients.length === 0 ? (
        <p>
          This server's record names no package or hosted endpoint yet; follow the setup guide on{' '}
          <a
            href={server.websiteUrl ?? server.repository?.url ?? tool.website}
            target="_blank"
            rel="noopener noreferrer"
          >
            its website
          </a>
          .
        </p>
      ) : (
        <>
          <p className="mcp-install__lead">
            Choose your client and copy the configuration. Values in angle brackets, like <code>&lt;API_KEY&gt;</code>,
            are placeholders for your own; VS Code asks for them when the server starts.
          </p>
          {differsOnWindows(server, key) && <OsChoice os={os} onChoose={chooseOs} />}
          {clients.map((snippets, i) => {
            const first = snippets[0];
            return (
              <details key={first.client} className="mcp-install__client" open={i === 0}>
                <summary>{first.label}</summary>
                <p className="mcp-install__files">
                  {first.files ? 'Add to ' : 'Run in a terminal:'}
                  {first.files?.map((f, j) => (
                    <span key={f.path}>
                      {j > 0 && ' or '}
                      <code>{f.path}</code> ({f.system})
                    </span>
                  ))}
                  {first.files && ':'}
                </p>
                {snippets.map((s) => (
                  <ClientSnippet key={s.variant?.id ?? s.client} snippet={s} />
                ))}
              </details>
            );
          })}
        </>
      )}
      {settings.length > 0 && (
        // A region of its own that scrolls sideways on a narrow screen (long setting names), reachable by keyboard.
        <div className="mcp-install__scroll" role="region" aria-labelledby="mcp-settings-caption" tabIndex={0}>
          <table className="mcp-install__settings">
            <caption id="mcp-settings-caption">Settings</caption>
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
        </div>
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
