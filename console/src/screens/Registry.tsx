/** The registry's jobs (docs/operations.md, Jobs): each job's last and next run, what it changed, failures with their
 *  reasons, "Run now", recent runs and the servers waiting for an inspection. Editors and admins; the server asks on
 *  every call. */
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../api';
import { Done, ErrorNote, Loading } from '../components/Status';
import { ACTIONS, Table } from '../components/Table';
import { utc } from '../format';
import { useResource } from '../useResource';

export interface JobRun {
  id: number;
  job: string;
  slot: string;
  attempt: number;
  trigger: string;
  instance: string;
  startedAt: string;
  finishedAt: string | null;
  status: 'running' | 'ok' | 'failed';
  reason: string | null;
  summary: string;
}

export interface JobState {
  name: string;
  about: string;
  every: string;
  last?: JobRun;
  lastGood?: JobRun;
  next: string;
}

interface Jobs {
  jobs: JobState[];
  runs: JobRun[];
  inspectionQueue: { slug: string; version: string | null; reason: string; queuedAt: string }[];
}

/** "ok", "failed: <reason>" or "running", for a run. */
function outcome(run: JobRun): string {
  if (run.status === 'failed') return `failed: ${run.reason ?? 'no reason given'}`;
  return run.status === 'running' ? 'running' : 'ok';
}

function RunNow({ job, onDone }: { job: string; onDone: (message: string, error?: boolean) => void }) {
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await api.post(`/api/jobs/${encodeURIComponent(job)}/run`, {});
      onDone(`${job}: run started.`);
    } catch (err) {
      onDone(`${job}: ${errorText(err)}`, true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form method="post" action={`/api/jobs/${encodeURIComponent(job)}/run`} onSubmit={submit} className="inline-form">
      <button type="submit" className="btn" disabled={busy} aria-label={`Run ${job} now`}>
        Run now
      </button>
    </form>
  );
}

export function RegistryScreen() {
  const jobs = useResource<Jobs>('/api/jobs');
  const [done, setDone] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const finish = async (message: string, error?: boolean) => {
    setDone(error ? null : message);
    setFailed(error ? message : null);
    await jobs.reload();
  };
  const data = jobs.data;
  return (
    <>
      <h1>Registry</h1>
      <ErrorNote>{jobs.error ?? failed}</ErrorNote>
      <Done>{done}</Done>
      {/* The upstream registries this site follows: the sync work adds its Upstreams component here. */}
      <section aria-labelledby="registry-upstreams" data-place="upstreams">
        <h2 id="registry-upstreams">Upstreams</h2>
        <p className="muted">Upstream registries are managed here once registry sync is in place.</p>
      </section>
      {jobs.loading && !data ? (
        <Loading what="the jobs" />
      ) : (
        data && (
          <>
            <section aria-labelledby="registry-jobs">
              <h2 id="registry-jobs">Jobs</h2>
              <Table caption="Jobs" columns={['Job', 'Schedule', 'Last run', 'What it changed', 'Next run', ACTIONS]}>
                {data.jobs.map((j) => (
                  <tr key={j.name}>
                    <th scope="row">
                      {j.name}
                      {j.about && <p className="muted">{j.about}</p>}
                    </th>
                    <td>{j.every}</td>
                    <td>
                      {j.last ? (
                        <>
                          {utc(j.last.startedAt)}: {outcome(j.last)}
                          {j.last.status === 'failed' && (
                            <p className="muted">
                              {j.lastGood
                                ? `Last good run ${utc(j.lastGood.startedAt)}; its facts are kept.`
                                : 'No run has ended well yet.'}
                            </p>
                          )}
                        </>
                      ) : (
                        'never'
                      )}
                    </td>
                    <td>{j.last?.summary || '—'}</td>
                    <td>{utc(j.next)}</td>
                    <td>
                      <RunNow job={j.name} onDone={finish} />
                    </td>
                  </tr>
                ))}
              </Table>
            </section>
            <section aria-labelledby="registry-runs">
              <h2 id="registry-runs">Recent runs</h2>
              {data.runs.length === 0 ? (
                <p>No job has run yet.</p>
              ) : (
                <Table
                  caption="Recent runs"
                  columns={['Job', 'Started', 'Finished', 'Outcome', 'What it changed', 'By']}
                >
                  {data.runs.map((r) => (
                    <tr key={r.id}>
                      <td>{r.job}</td>
                      <td>{utc(r.startedAt)}</td>
                      <td>{utc(r.finishedAt)}</td>
                      <td>
                        {outcome(r)}
                        {r.attempt > 1 ? ` (try ${r.attempt})` : ''}
                      </td>
                      <td>{r.summary || '—'}</td>
                      <td>
                        {r.trigger} on {r.instance}
                      </td>
                    </tr>
                  ))}
                </Table>
              )}
            </section>
            <section aria-labelledby="registry-inspections">
              <h2 id="registry-inspections">Waiting for an inspection</h2>
              {data.inspectionQueue.length === 0 ? (
                <p>No server is waiting.</p>
              ) : (
                <ul>
                  {data.inspectionQueue.map((q) => (
                    <li key={q.slug}>
                      {q.slug}
                      {q.version ? ` ${q.version}` : ''}: {q.reason} ({utc(q.queuedAt)})
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </>
        )
      )}
    </>
  );
}
