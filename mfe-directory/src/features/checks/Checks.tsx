import type { Tool } from '@aitools/contracts/tools';
import type { ToolDetailExtras } from '@aitools/contracts/mcp';
import {
  HEALTH_LABELS,
  RULE_TITLES,
  visibleText,
  type ChecksFacts,
  type DiffPart,
  type Finding,
  type HealthFacts,
  type ItemChange,
  type LicenseFacts,
  type RuleId,
} from '@aitools/contracts/checks';
import './checks.css';

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function FindingEntry({ finding }: { finding: Finding }) {
  return (
    <li className={`dir-checks__finding${finding.dismissed ? ' dir-checks__finding--dismissed' : ''}`}>
      <p>
        <strong className={`dir-checks__severity dir-checks__severity--${finding.severity}`}>{finding.severity}</strong>{' '}
        {RULE_TITLES[finding.rule as RuleId] ?? finding.rule} (<code>{finding.rule}</code>), in {finding.where}
        {finding.dismissed && <strong className="dir-checks__dismissed"> · dismissed</strong>}
      </p>
      <p className="dir-checks__found">
        Found: <code>{visibleText(finding.text)}</code>
      </p>
      {finding.dismissed && (
        <p className="dir-checks__reason">
          Dismissed by a moderator on {finding.dismissed.at.slice(0, 10)}: {finding.dismissed.reason}
        </p>
      )}
    </li>
  );
}

function License({ license }: { license: LicenseFacts }) {
  switch (license.status) {
    case 'known':
      return (
        <p>
          <code>{license.expression}</code>
          {license.declared && <> (the package writes “{license.declared}”)</>}, as its package declares.
        </p>
      );
    case 'unknown':
      return <p>Unknown: the package declares “{license.declared}”, which is not an SPDX license expression.</p>;
    case 'missing':
      return <p>Missing: the package declares no license.</p>;
  }
}

function Difference({ label, parts }: { label: string; parts: DiffPart[] }) {
  return (
    <p className="dir-checks__diff">
      {label}:{' '}
      {parts.map((p, i) =>
        // Screen readers mostly do not announce <ins> and <del>: each says what it is in words too.
        p.added ? (
          <ins key={i}>
            <span className="visually-hidden">[added: </span>
            {p.value}
            <span className="visually-hidden">]</span>
          </ins>
        ) : p.removed ? (
          <del key={i}>
            <span className="visually-hidden">[removed: </span>
            {p.value}
            <span className="visually-hidden">]</span>
          </del>
        ) : (
          <span key={i}>{p.value}</span>
        ),
      )}
    </p>
  );
}

function Change({ change }: { change: ItemChange }) {
  const what = change.kind === 'instructions' ? 'The instructions' : `${change.kind} ${change.name}`;
  return (
    <li>
      <p>
        {change.kind === 'instructions' ? (
          what
        ) : (
          <>
            {change.kind} <code>{change.name}</code>
          </>
        )}
        : {change.change}
      </p>
      {change.description && <Difference label="Description" parts={change.description} />}
      {change.parameters && <Difference label="Parameters" parts={change.parameters} />}
    </li>
  );
}

function History({ checks }: { checks: ChecksFacts }) {
  const { history } = checks;
  if (!history)
    return (
      <p>
        {checks.snapshots
          ? `One version kept so far (content hash ${checks.contentHash?.slice(0, 12)}…).`
          : 'No version kept yet.'}
      </p>
    );
  const same = history.from.version === history.to.version;
  return (
    <>
      <p>
        {same
          ? `Changes within version ${history.to.version}, seen ${history.from.takenAt.slice(0, 10)} and ${history.to.takenAt.slice(0, 10)}:`
          : `Changes from version ${history.from.version} to ${history.to.version}:`}
      </p>
      {history.changes.length ? (
        <ul className="dir-checks__changes">
          {history.changes.map((c) => (
            <Change key={`${c.kind} ${c.name}`} change={c} />
          ))}
        </ul>
      ) : (
        <p>Nothing the model reads changed.</p>
      )}
    </>
  );
}

const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;

/** A remote server's health: the last check, the 30-day uptime and median time (docs/mcp.md, "Health"). */
function Health({ health }: { health: HealthFacts }) {
  const { last } = health;
  return (
    <>
      <p>
        Last check {last.at.slice(0, 16).replace('T', ' ')} UTC:{' '}
        <strong className={`dir-checks__health dir-checks__health--${last.status}`}>
          {HEALTH_LABELS[last.status]}
        </strong>
        {last.ms !== undefined && <> in {last.ms} ms</>}
        {last.detail && <> ({last.detail})</>}.
      </p>
      <p>
        Last 30 days: {percent(health.uptime30d)} uptime over {count(health.checks30d, 'check')}
        {health.medianMs !== undefined && <>, median time {health.medianMs} ms</>}.
      </p>
    </>
  );
}

/** "Checks": what the description rules found in an MCP server's texts, its license and what changed in its tools
 *  (docs/mcp.md, "Description checks"). Plain HTML: nothing here needs script. */
export function Checks({ tool }: { tool: Tool }) {
  const extras = tool as Tool & ToolDetailExtras;
  const checks = extras.mcpChecks;
  if (!checks) return null;
  const inspected = extras.mcpInspection?.status === 'inspected';
  const open = checks.rugPulls.filter((r) => !r.reviewed);
  return (
    <section aria-labelledby="dir-checks-title" className="dir-detail__section dir-checks">
      <h2 id="dir-checks-title">Checks</h2>
      {checks.health?.failingSince && (
        <p className="dir-checks__alert" role="note">
          <strong>Failing for 7 days or more:</strong> every health check since{' '}
          {checks.health.failingSince.slice(0, 10)} failed.
        </p>
      )}
      {open.map((r) => (
        <p key={r.id} className="dir-checks__alert" role="note">
          <strong>Possible rug pull:</strong> its tools changed within version {r.version} (noticed{' '}
          {r.flaggedAt.slice(0, 10)}), waiting for a moderator’s review.
        </p>
      ))}
      <h3>Descriptions</h3>
      {!inspected ? (
        <p>Not checked: the server was not inspected, so its descriptions are not known.</p>
      ) : checks.findings.length === 0 ? (
        <p>No findings: no rule matched its tool, prompt, resource or instruction texts.</p>
      ) : (
        <>
          <p>
            {count(checks.open, 'open finding')}
            {checks.findings.length > checks.open && `, ${checks.findings.length - checks.open} dismissed`}.
          </p>
          <ul className="dir-checks__findings">
            {checks.findings.map((f) => (
              <FindingEntry key={f.id} finding={f} />
            ))}
          </ul>
        </>
      )}
      {checks.health && (
        <>
          <h3>Health</h3>
          <Health health={checks.health} />
        </>
      )}
      <h3>License</h3>
      <License license={checks.license} />
      <h3>Tool history</h3>
      <History checks={checks} />
      {checks.rugPulls
        .filter((r) => r.reviewed)
        .map((r) => (
          <p key={r.id} className="dir-checks__reviewed">
            A change within version {r.version} was reviewed by a moderator on {r.reviewed!.at.slice(0, 10)}:{' '}
            {r.reviewed!.reason}
          </p>
        ))}
    </section>
  );
}
