/**
 * The upstream registries this site follows (admins; docs/operations.md, "Following upstream registries"): each with
 * its last sync (when, what it changed, or why it was refused), added, edited or removed here, and "Sync now", which
 * runs the job's own service.
 */
import { useState } from 'react';
import { UPSTREAM_FORM } from '@aitools/contracts/formFields';
import { api, errorText } from '../api';
import { Confirm } from '../components/Confirm';
import { Field } from '../components/Field';
import { FormInput } from '../components/FormInput';
import { Done, ErrorNote, Loading } from '../components/Status';
import { Table } from '../components/Table';
import { labelOf, refusalText, useFieldErrors } from '../fieldErrors';
import { utc } from '../format';
import { useResource } from '../useResource';
import type { SyncRecord, Upstream } from '@aitools/contracts/upstreams';

const POLICIES = { submissions: 'Pending submissions for the moderators', list: 'Listed at once' } as const;
const DEFAULT_PAGES = '20';

/** "12 added as submissions, 3 updated" (the counts that are not zero), or the refusal's reason. */
export function syncSummary(s: SyncRecord): string {
  if (s.outcome === 'refused') return `Refused, nothing changed: ${s.reason}`;
  const c = s.counts;
  const parts = [
    [c.added, 'added as submissions'],
    [c.listed, 'listed'],
    [c.updated, 'updated'],
    [c.deleted, 'deleted'],
    [c.skipped, 'skipped'],
  ]
    .filter(([n]) => n)
    .map(([n, what]) => `${n} ${what}`);
  return `${c.records} records in ${c.pages} pages: ${parts.length ? parts.join(', ') : 'no change'}`;
}

export function UpstreamsScreen() {
  const upstreams = useResource<{ upstreams: Upstream[] }>('/api/upstreams');
  const [editing, setEditing] = useState<Upstream | null>(null);
  const [url, setUrl] = useState('');
  const [policy, setPolicy] = useState<Upstream['policy']>('submissions');
  const [pages, setPages] = useState(DEFAULT_PAGES);
  const [removing, setRemoving] = useState<Upstream | null>(null);
  const [syncing, setSyncing] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const form = useFieldErrors(UPSTREAM_FORM, 'upstream');
  const { errors, formRef, refuseFailure, clear, marks, reset } = form;

  const fill = (u: Upstream | null) => {
    setEditing(u);
    setUrl(u?.url ?? '');
    setPolicy(u?.policy ?? 'submissions');
    setPages(String(u?.pagesPerRun ?? DEFAULT_PAGES));
    reset();
  };
  const act = async (work: () => Promise<string>) => {
    setError(null);
    setDone(null);
    try {
      setDone(await work());
      await upstreams.reload();
    } catch (err) {
      setError(errorText(err));
    }
  };

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    setDone(null);
    reset();
    const body = { url: url.trim(), policy, pagesPerRun: Number(pages) };
    try {
      if (editing) await api.post(`/api/upstreams/${editing.id}`, body);
      else await api.post('/api/upstreams', body);
      setDone(editing ? `Upstream ${body.url} saved.` : `Upstream ${body.url} followed.`);
      fill(null);
      await upstreams.reload();
    } catch (err) {
      if (!refuseFailure(err)) setError(errorText(err));
    }
  };
  const syncNow = (u: Upstream) => {
    setSyncing(u.id);
    void act(async () => {
      try {
        const { result } = await api.post<{ result: SyncRecord }>(`/api/upstreams/${u.id}/sync`);
        return `${u.url}: ${syncSummary(result)}`;
      } finally {
        setSyncing(null);
      }
    });
  };

  return (
    <>
      <h1>Upstream registries</h1>
      <p className="muted">
        Registries speaking <code>/v0.1</code> (the official registry, or another copy of this site) whose changes this
        site follows. Each sync reads what changed since the last good one; an upstream that answers wrongly is refused
        with the reason, and nothing changes.
      </p>
      <form ref={formRef} onSubmit={(e) => void save(e)} className="card" noValidate aria-labelledby="upstream-heading">
        <h2 id="upstream-heading">{editing ? `Edit ${editing.url}` : 'Follow an upstream'}</h2>
        <FormInput
          formErrors={form}
          name="url"
          type="url"
          value={url}
          onValue={setUrl}
          hint="Its base address: the sync reads /v0.1/servers there."
          placeholder="https://registry.modelcontextprotocol.io"
          required
        />
        <Field id="upstream-policy" label={labelOf(UPSTREAM_FORM, 'policy')} error={errors.policy}>
          <select
            id="upstream-policy"
            value={policy}
            onChange={(e) => {
              setPolicy(e.target.value as Upstream['policy']);
              clear('policy');
            }}
            {...marks('policy')}
          >
            {Object.entries(POLICIES).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <FormInput
          formErrors={form}
          name="pagesPerRun"
          type="number"
          inputMode="numeric"
          min={1}
          max={1000}
          value={pages}
          onValue={setPages}
          hint="At most this many pages of 100 servers in one sync; the next sync goes on from there."
        />
        <button type="submit" className="btn btn--primary" disabled={!url.trim()}>
          {editing ? 'Save upstream' : 'Follow'}
        </button>
        {editing && (
          <button type="button" className="btn" onClick={() => fill(null)}>
            Cancel
          </button>
        )}
        <ErrorNote>
          {refusalText(editing ? 'Not saved' : 'Not followed', UPSTREAM_FORM, errors) ?? errors.form}
        </ErrorNote>
      </form>
      <ErrorNote>{error}</ErrorNote>
      <Done>{done}</Done>
      {removing && (
        <Confirm
          question={`Stop following ${removing.url}? The servers it brought stay as they are.`}
          action={`Remove ${removing.url}`}
          danger
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const u = removing;
            setRemoving(null);
            void act(async () => {
              await api.post(`/api/upstreams/${u.id}/remove`);
              if (editing?.id === u.id) fill(null);
              return `${u.url} is no longer followed.`;
            });
          }}
        />
      )}
      <ErrorNote>{upstreams.error}</ErrorNote>
      {!upstreams.data ? (
        !upstreams.error && <Loading what="the upstreams" />
      ) : upstreams.data.upstreams.length === 0 ? (
        <p>No upstream is followed yet.</p>
      ) : (
        <Table
          caption="Followed upstreams"
          columns={['Address', 'New servers', 'Pages per run', 'Last sync', 'Actions']}
        >
          {upstreams.data.upstreams.map((u) => (
            <tr key={u.id}>
              <th scope="row" className="mono">
                {u.url}
              </th>
              <td>{POLICIES[u.policy]}</td>
              <td>{u.pagesPerRun}</td>
              <td>
                {u.lastSync ? (
                  <>
                    {utc(u.lastSync.finishedAt)}
                    <br />
                    <span className={u.lastSync.outcome === 'refused' ? 'field__error' : undefined}>
                      {syncSummary(u.lastSync)}
                    </span>
                    {u.resumeCursor && <span className="muted"> (more pages remain)</span>}
                  </>
                ) : (
                  'Never'
                )}
              </td>
              <td>
                <button type="button" className="btn" disabled={syncing !== null} onClick={() => syncNow(u)}>
                  {syncing === u.id ? 'Syncing…' : 'Sync now'} <span className="visually-hidden">{u.url}</span>
                </button>
                <button type="button" className="btn" onClick={() => fill(u)}>
                  Edit <span className="visually-hidden">{u.url}</span>
                </button>
                <button type="button" className="btn btn--danger" onClick={() => setRemoving(u)}>
                  Remove <span className="visually-hidden">{u.url}</span>
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}
