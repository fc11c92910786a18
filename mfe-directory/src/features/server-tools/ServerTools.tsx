import type { Tool } from '@aitools/contracts/tools';
import type { ToolDetailExtras } from '@aitools/contracts/mcp';
import { toolParameters, type InspectedTool, type McpInspection } from '@aitools/contracts/inspection';
import './server-tools.css';

/** A description's first paragraph stays in view; the rest opens below it (a native disclosure: no script needed). */
function Description({ text }: { text?: string }) {
  if (!text) return null;
  const [first, ...rest] = text.trim().split(/\n\s*\n/);
  return (
    <div className="dir-offer__desc">
      <p>{first}</p>
      {rest.length > 0 && (
        <details>
          <summary>More</summary>
          {rest.map((p, i) => (
            <p key={i}>{p}</p>
          ))}
        </details>
      )}
    </div>
  );
}

function ToolEntry({ tool }: { tool: InspectedTool }) {
  const params = toolParameters(tool);
  return (
    <li className="dir-offer__tool">
      <h3 className="dir-offer__name">
        <code>{tool.name}</code>
        {tool.title && tool.title !== tool.name && <span className="dir-offer__title"> {tool.title}</span>}
      </h3>
      <Description text={tool.description} />
      {params.length > 0 ? (
        <ul className="dir-offer__params" aria-label={`Parameters of ${tool.name}`}>
          {params.map((p) => (
            <li key={p.name}>
              <code>{p.name}</code>
              {p.type && <span className="dir-offer__type"> {p.type}</span>}
              {p.required ? (
                <strong className="dir-offer__required"> required</strong>
              ) : (
                <span className="dir-offer__optional"> optional</span>
              )}
              {p.description && <span> — {p.description}</span>}
            </li>
          ))}
        </ul>
      ) : (
        <p className="dir-offer__none">No parameters.</p>
      )}
    </li>
  );
}

/** The server's prompts or resources: each name and description; nothing when it lists none. */
function NamedList({ title, items }: { title: string; items: { key: string; name: string; description?: string }[] }) {
  if (!items.length) return null;
  return (
    <>
      <h3 className="dir-offer__sub">
        {title} ({items.length})
      </h3>
      <ul className="dir-offer__plain">
        {items.map((item) => (
          <li key={item.key}>
            <code>{item.name}</code>
            {item.description && <span> — {item.description}</span>}
          </li>
        ))}
      </ul>
    </>
  );
}

function Inspected({ inspection }: { inspection: Extract<McpInspection, { status: 'inspected' }> }) {
  const { tools, prompts, resources } = inspection;
  return (
    <>
      <h2 id="dir-offer-title">Tools ({tools.length})</h2>
      <p className="dir-offer__source">
        {inspection.remote ? (
          <>
            What the server itself listed when we asked <code>{inspection.remote.url}</code> over{' '}
            {inspection.remote.type === 'sse' ? 'SSE' : 'Streamable HTTP'} on {inspection.inspectedAt}.
          </>
        ) : (
          <>
            What the server itself listed when we ran <code>{`${inspection.package}@${inspection.version}`}</code> on{' '}
            {inspection.inspectedAt}.
          </>
        )}
      </p>
      {tools.length > 0 ? (
        <ul className="dir-offer__list">
          {tools.map((t) => (
            <ToolEntry key={t.name} tool={t} />
          ))}
        </ul>
      ) : (
        <p>It offers no tools.</p>
      )}
      <NamedList title="Prompts" items={prompts.map((p) => ({ key: p.name, ...p }))} />
      <NamedList title="Resources" items={resources.map((r) => ({ key: r.uri, ...r }))} />
    </>
  );
}

/** "Tools (N)": what an MCP server offers, from running it (pnpm registry inspect), or why it was not run. */
export function ServerTools({ tool }: { tool: Tool }) {
  const inspection = (tool as Tool & ToolDetailExtras).mcpInspection;
  if (!inspection) return null;
  return (
    <section aria-labelledby="dir-offer-title" className="dir-detail__section dir-offer">
      {inspection.status === 'inspected' ? (
        <Inspected inspection={inspection} />
      ) : (
        <>
          <h2 id="dir-offer-title">Tools</h2>
          <p className="dir-offer__not">Not inspected: {inspection.reason}</p>
        </>
      )}
    </section>
  );
}
