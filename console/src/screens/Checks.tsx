/** The description checks' queue (docs/mcp.md, "Description checks"): changes of a server's tools within one version
 *  (possible rug pulls) to review, and findings, each of which a moderator may dismiss with a reason. */
import { useState, type FormEvent } from 'react';
import { RULE_TITLES, visibleText, type Finding, type RuleId } from '@aitools/contracts/checks';
import { api, ApiError, errorText } from '../api';
import { Field } from '../components/Field';
import { Done, ErrorNote, Loading } from '../components/Status';
import { utc } from '../format';
import { can } from '../roles';
import { usePerson } from '../session';
import { useResource } from '../useResource';

interface Queue {
  rugPulls: { id: number; slug: string; version: string; flaggedAt: string }[];
  findings: { slug: string; findings: Finding[] }[];
  failing: { slug: string; since: string }[];
}

/** One reason and one button: the reason is required, its error shown beside it. */
function ReasonForm({
  id,
  action,
  send,
  onDone,
}: {
  id: string;
  action: string;
  send: (reason: string) => Promise<unknown>;
  onDone: (message: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!reason.trim()) return setError('Give a reason.');
    try {
      await send(reason.trim());
      setError(undefined);
      onDone(`${action}: done.`);
    } catch (err) {
      const fields = err instanceof ApiError ? (err.body as { fieldErrors?: { reason?: string } })?.fieldErrors : {};
      setError(fields?.reason ?? errorText(err));
    }
  };
  return (
    <form onSubmit={submit} className="inline-form" noValidate>
      <Field id={id} label={`Reason (${action.toLowerCase()})`} error={error}>
        <input
          id={id}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </Field>
      <button type="submit" className="btn">
        {action}
      </button>
    </form>
  );
}

export function ChecksScreen() {
  const moderator = can.moderate(usePerson());
  const queue = useResource<Queue>('/api/checks');
  const [done, setDone] = useState<string | null>(null);
  const finish = async (message: string) => {
    setDone(message);
    await queue.reload();
  };
  const data = queue.data;
  return (
    <>
      <h1>Checks</h1>
      <ErrorNote>{queue.error}</ErrorNote>
      <Done>{done}</Done>
      {queue.loading && !data ? (
        <Loading what="the checks" />
      ) : (
        data && (
          <>
            <section aria-labelledby="checks-rug-pulls">
              <h2 id="checks-rug-pulls">Changes within one version</h2>
              {data.rugPulls.length === 0 ? (
                <p>No change is waiting for a review.</p>
              ) : (
                <ul>
                  {data.rugPulls.map((r) => (
                    <li key={r.id}>
                      <p>
                        <a href={`/tool/${r.slug}`}>{r.slug}</a>: its tools changed within version {r.version} (
                        {utc(r.flaggedAt)}).
                      </p>
                      {moderator && (
                        <ReasonForm
                          id={`review-${r.id}`}
                          action="Mark reviewed"
                          send={(reason) => api.post('/api/checks/review', { id: r.id, reason })}
                          onDone={finish}
                        />
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section aria-labelledby="checks-failing">
              <h2 id="checks-failing">Failing for 7 days</h2>
              {data.failing.length === 0 ? (
                <p>No remote server has failed its health checks for 7 days.</p>
              ) : (
                <ul>
                  {data.failing.map((f) => (
                    <li key={f.slug}>
                      <a href={`/tool/${f.slug}`}>{f.slug}</a>: every health check failed since {utc(f.since)}.
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section aria-labelledby="checks-findings">
              <h2 id="checks-findings">Findings</h2>
              {data.findings.length === 0 ? (
                <p>No server has a finding.</p>
              ) : (
                data.findings.map((s) => (
                  <div key={s.slug}>
                    <h3>
                      <a href={`/tool/${s.slug}`}>{s.slug}</a>
                    </h3>
                    <ul>
                      {s.findings.map((f) => (
                        <li key={f.id}>
                          <p>
                            <strong>{f.severity}</strong> {RULE_TITLES[f.rule as RuleId] ?? f.rule} (
                            <code>{f.rule}</code>), in {f.where}: <code>{visibleText(f.text)}</code>
                          </p>
                          {f.dismissed ? (
                            <p>
                              Dismissed {utc(f.dismissed.at)}: {f.dismissed.reason}
                            </p>
                          ) : (
                            moderator && (
                              <ReasonForm
                                id={`dismiss-${f.id}`}
                                action="Dismiss"
                                send={(reason) =>
                                  api.post('/api/checks/dismiss', { slug: s.slug, findingId: f.id, reason })
                                }
                                onDone={finish}
                              />
                            )
                          )}
                        </li>
                      ))}
                    </ul>
                  </div>
                ))
              )}
            </section>
          </>
        )
      )}
    </>
  );
}
