/**
 * Each remote's releases: active and canary, the releases kept, the history, the error rates automatic rollback
 * watches; and, for its release managers, start a canary, promote, abort, roll back (typed confirmation, reason).
 */
import { useState } from 'react';
import { api, errorText } from '../api';
import { ErrorRateChart, buckets } from '../components/ErrorRateChart';
import { Done, ErrorNote, Loading } from '../components/Status';
import { Table } from '../components/Table';
import { RELEASE_ACTION_FORM } from '@aitools/contracts/formFields';
import { Field } from '../components/Field';
import { TypedConfirm } from '../components/TypedConfirm';
import { labelOf, useFieldErrors } from '../fieldErrors';
import { rateText, utc } from '../format';
import { can } from '../roles';
import { usePerson } from '../session';
import { useResource } from '../useResource';
import type { RemoteReleases, SeriesPoint, Thresholds } from '../types';

type Action = 'canary' | 'promote' | 'abort' | 'rollback';
const HOURS = 6;

const THRESHOLD_TEXT: Record<keyof Thresholds, (v: number) => string> = {
  minViews: (v) => `judged after ${v} page views`,
  minErrors: (v) => `and ${v} errors`,
  ratio: (v) => `rolled back above ${v}× the stable rate`,
  minDiffPoints: (v) => `and more than ${v} points above it`,
  windowMinutes: (v) => `watched for ${v} min after a full release`,
};

function ErrorRates({ remote }: { remote: RemoteReleases }) {
  const series = useResource<{ points: SeriesPoint[] }>(
    `/api/releases/${encodeURIComponent(remote.name)}/series?hours=${HOURS}`,
  );
  const rates = remote.errorRates ?? {};
  // While a full release is watched, the stable release is the one before it.
  const stable = (typeof rates.stable === 'object' && rates.stable.release) || remote.active || 'none';
  const fresh = remote.canary?.release ?? (rates.watching === 'activation' ? (remote.active ?? undefined) : undefined);
  const thresholds = Object.entries(remote.thresholds ?? {}).filter(
    (e): e is [keyof Thresholds, number] => e[0] in THRESHOLD_TEXT && typeof e[1] === 'number',
  );
  return (
    <>
      <h3>Error rates</h3>
      <dl className="facts">
        <div>
          <dt>Stable ({stable})</dt>
          <dd>{rateText(remote.errorRates?.stable)}</dd>
        </div>
        {remote.canary && (
          <div>
            <dt>Canary ({remote.canary.release})</dt>
            <dd>{rateText(remote.errorRates?.canary)}</dd>
          </div>
        )}
        {remote.errorRates?.watching === 'activation' && (
          <div>
            <dt>Watched since its release ({remote.active})</dt>
            <dd>{rateText(remote.errorRates.fresh)}</dd>
          </div>
        )}
        {thresholds.length > 0 && (
          <div>
            <dt>Automatic rollback</dt>
            <dd>{thresholds.map(([k, v]) => THRESHOLD_TEXT[k](v)).join(', ')}</dd>
          </div>
        )}
      </dl>
      <ErrorNote>{series.error}</ErrorNote>
      {series.data ? (
        <ErrorRateChart
          title={`${remote.name}: error rate per page view, last ${HOURS} hours`}
          data={buckets(series.data.points, stable, fresh, remote.thresholds ?? {})}
          freshLabel={remote.canary ? 'Canary' : 'New release'}
        />
      ) : (
        !series.error && <Loading what="the error rates" />
      )}
    </>
  );
}

function Actions({ remote, onDone }: { remote: RemoteReleases; onDone(message: string): Promise<void> }) {
  const [open, setOpen] = useState<Action | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The action's refused fields, each beside its control (ids `${remote}-release`, `-share`, `-confirm`, `-reason`).
  const refusals = useFieldErrors(RELEASE_ACTION_FORM, remote.name);
  // A canary may be any stored release but the active one and the running canary; a rollback, any but the active
  // one. By default a rollback ends a running canary (no release named: the server aborts it), else returns to the
  // release the active one replaced.
  const canaryTargets = remote.releases.filter((r) => r.id !== remote.active && r.id !== remote.canary?.release);
  const rollbackTargets = remote.releases.filter((r) => r.id !== remote.active);
  const replaced = [...remote.history].reverse().find((h) => h.id === remote.active)?.from;
  const targets = (action: Action) => (action === 'canary' ? canaryTargets : rollbackTargets);
  const [release, setRelease] = useState('');
  const [share, setShare] = useState(50);
  const name = remote.name;
  const start = (action: Action) => {
    const list = targets(action);
    if (action === 'rollback' && remote.canary) setRelease('');
    else if (action === 'rollback' && list.some((r) => r.id === replaced)) setRelease(replaced as string);
    else setRelease(list[0]?.id ?? '');
    setError(null);
    refusals.reset();
    setOpen(action);
  };
  const submit = async (confirm: string, reason: string) => {
    setError(null);
    refusals.reset();
    try {
      const path = `/api/releases/${encodeURIComponent(name)}/${open}`;
      if (open === 'canary') await api.post(path, { release, share, confirm, reason });
      else if (open === 'rollback') await api.post(path, { confirm, reason, ...(release ? { release } : {}) });
      else await api.post(path, { confirm, reason });
      setOpen(null);
      await onDone(
        open === 'canary'
          ? `${name}: canary ${release} started at ${share}%.`
          : open === 'promote'
            ? `${name}: canary promoted.`
            : open === 'abort'
              ? `${name}: canary aborted.`
              : `${name}: rolled back.`,
      );
    } catch (err) {
      if (!refusals.refuseFailure(err)) setError(errorText(err));
    }
  };
  const releaseSelect = (label: string) => (
    <Field id={`${name}-release`} label={label} error={refusals.errors.release}>
      <select
        id={`${name}-release`}
        value={release}
        onChange={(e) => {
          setRelease(e.target.value);
          refusals.clear('release');
        }}
        {...refusals.marks('release')}
      >
        {open === 'rollback' && remote.canary && (
          <option value="">{`none: end the canary (${remote.active} stays active)`}</option>
        )}
        {(open ? targets(open) : []).map((r) => (
          <option key={r.id} value={r.id}>
            {r.id}
          </option>
        ))}
      </select>
    </Field>
  );
  const verb: Record<Action, string> = {
    canary: `Start the canary on ${name}`,
    promote: `Promote the canary of ${name}`,
    abort: `Abort the canary of ${name}`,
    rollback: `Roll back ${name}`,
  };
  return (
    <div className="release-actions">
      <h3>Actions</h3>
      <div className="button-row">
        {!remote.canary && canaryTargets.length > 0 && (
          <button type="button" className="btn" onClick={() => start('canary')} aria-expanded={open === 'canary'}>
            Start a canary…
          </button>
        )}
        {remote.canary && (
          <>
            <button type="button" className="btn" onClick={() => start('promote')} aria-expanded={open === 'promote'}>
              Promote…
            </button>
            <button type="button" className="btn" onClick={() => start('abort')} aria-expanded={open === 'abort'}>
              Abort…
            </button>
          </>
        )}
        {(remote.canary || rollbackTargets.length > 0) && (
          <button type="button" className="btn" onClick={() => start('rollback')} aria-expanded={open === 'rollback'}>
            Roll back…
          </button>
        )}
      </div>
      <ErrorNote>{error}</ErrorNote>
      {open && (
        <TypedConfirm
          key={open}
          id={name}
          remote={name}
          action={verb[open]}
          refusals={refusals}
          onConfirm={submit}
          onCancel={() => setOpen(null)}
        >
          {open === 'canary' && (
            <>
              {releaseSelect('Release')}
              <Field id={`${name}-share`} label={labelOf(RELEASE_ACTION_FORM, 'share')} error={refusals.errors.share}>
                <input
                  id={`${name}-share`}
                  type="number"
                  min={1}
                  max={99}
                  value={share}
                  onChange={(e) => {
                    setShare(Number(e.target.value));
                    refusals.clear('share');
                  }}
                  {...refusals.marks('share')}
                />
              </Field>
            </>
          )}
          {open === 'rollback' && releaseSelect('Roll back to')}
        </TypedConfirm>
      )}
    </div>
  );
}

function RemoteSection({ remote, onDone }: { remote: RemoteReleases; onDone(message: string): Promise<void> }) {
  const person = usePerson();
  const id = `remote-${remote.name}`;
  return (
    <section aria-labelledby={id} className="card">
      <h2 id={id}>{remote.name}</h2>
      <dl className="facts">
        <div>
          <dt>Active</dt>
          <dd>{remote.active}</dd>
        </div>
        <div>
          <dt>Canary</dt>
          <dd>
            {remote.canary
              ? `${remote.canary.release}, ${remote.canary.share}% of visitors since ${utc(remote.canary.since)}`
              : 'none'}
          </dd>
        </div>
      </dl>
      <ErrorRates remote={remote} />
      {can.release(person, remote.name) && <Actions remote={remote} onDone={onDone} />}
      <h3>Releases kept</h3>
      <Table columns={['Release', 'Uploaded by', 'Uploaded']}>
        {remote.releases.map((r) => (
          <tr key={r.id}>
            <th scope="row">
              {r.id}
              {r.id === remote.active ? ' (active)' : r.id === remote.canary?.release ? ' (canary)' : ''}
            </th>
            <td>{r.uploadedBy ?? '—'}</td>
            <td>{utc(r.createdAt)}</td>
          </tr>
        ))}
      </Table>
      <details>
        <summary>History ({remote.history.length})</summary>
        <ol className="history">
          {[...remote.history].reverse().map((h, n) => (
            <li key={n}>
              {utc(h.at)}: {h.action} {h.id}
              {h.canary ? ` at ${h.canary}%` : ''}
              {h.from ? ` (from ${h.from})` : ''} by {h.by}
              {h.reason || h.note ? ` — ${h.reason ?? h.note}` : ''}
            </li>
          ))}
        </ol>
      </details>
    </section>
  );
}

export function ReleasesScreen() {
  const releases = useResource<{ remotes: RemoteReleases[] }>('/api/releases');
  const [done, setDone] = useState<string | null>(null);
  const onDone = async (message: string) => {
    setDone(message);
    await releases.reload();
  };
  return (
    <>
      <h1>Releases</h1>
      <Done>{done}</Done>
      <ErrorNote>{releases.error}</ErrorNote>
      {!releases.data
        ? !releases.error && <Loading what="the releases" />
        : releases.data.remotes.map((r) => <RemoteSection key={r.name} remote={r} onDone={onDone} />)}
    </>
  );
}
