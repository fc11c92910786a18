import { ErrorNote, Loading } from '../components/Status';
import { Table } from '../components/Table';
import { rateText, utc } from '../format';
import { useResource } from '../useResource';
import type { Dashboard, Health } from '../types';

/** Days as rows, remotes as columns. */
function viewsTable(rows: Dashboard['viewsPerRemotePerDay']) {
  const days = [...new Set(rows.map((r) => r.day))].sort().reverse();
  const remotes = [...new Set(rows.map((r) => r.remote))].sort();
  const views = new Map(rows.map((r) => [`${r.day}|${r.remote}`, r.views]));
  return { days, remotes, views };
}

/** Nested facts as one list: { database: { ok: true } } -> "database ok: yes". */
export function flattenFacts(facts: Record<string, unknown>, prefix = ''): [string, string][] {
  return Object.entries(facts).flatMap(([k, v]): [string, string][] => {
    const key = prefix ? `${prefix} ${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const inner = flattenFacts(v as Record<string, unknown>, key);
      return inner.length ? inner : [[key, 'none']];
    }
    if (typeof v === 'boolean') return [[key, v ? 'yes' : 'no']];
    return [[key, Array.isArray(v) ? v.join(', ') : String(v ?? '—')]];
  });
}

function HealthFacts({ facts }: { facts: Record<string, unknown> }) {
  return (
    <dl className="facts">
      {flattenFacts(facts).map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function DashboardScreen() {
  const dashboard = useResource<Dashboard>('/api/dashboard');
  const health = useResource<Health>('/api/health');
  const d = dashboard.data;
  const table = d ? viewsTable(d.viewsPerRemotePerDay) : null;
  return (
    <>
      <h1>Dashboard</h1>
      <ErrorNote>{dashboard.error}</ErrorNote>
      {!d || !table ? (
        !dashboard.error && <Loading what="the dashboard" />
      ) : (
        <>
          <ul className="stats">
            <li>
              <span className="stats__value">{d.pendingSubmissions}</span> pending submissions
            </li>
            <li>
              <span className="stats__value">{d.messagesThisWeek}</span> messages this week
            </li>
          </ul>
          <section aria-labelledby="remotes-heading">
            <h2 id="remotes-heading">Remotes</h2>
            <Table
              caption="Remotes"
              columns={['Remote', 'Active release', 'Canary', 'Error rate (stable)', 'Error rate (canary)']}
            >
              {d.remotes.map((r) => (
                <tr key={r.name}>
                  <th scope="row">{r.name}</th>
                  <td>{r.active ?? 'none'}</td>
                  <td>
                    {r.canary ? `${r.canary.release} at ${r.canary.share}% since ${utc(r.canary.since)}` : 'none'}
                  </td>
                  <td>{rateText(r.errorRates.stable)}</td>
                  <td>{r.canary ? rateText(r.errorRates.canary) : '—'}</td>
                </tr>
              ))}
            </Table>
          </section>
          <section aria-labelledby="views-heading">
            <h2 id="views-heading">Page views per remote per day</h2>
            {table.days.length === 0 ? (
              <p>No page views recorded yet.</p>
            ) : (
              <Table caption="Page views per remote per day" columns={['Day (UTC)', ...table.remotes]}>
                {table.days.map((day) => (
                  <tr key={day}>
                    <th scope="row">{day}</th>
                    {table.remotes.map((r) => (
                      <td key={r} className="num">
                        {table.views.get(`${day}|${r}`) ?? 0}
                      </td>
                    ))}
                  </tr>
                ))}
              </Table>
            )}
          </section>
        </>
      )}
      <section aria-labelledby="health-heading">
        <h2 id="health-heading">Health</h2>
        <ErrorNote>{health.error}</ErrorNote>
        {health.data && (
          <>
            <h3>This instance</h3>
            <HealthFacts facts={health.data.instance} />
            {health.data.instances && (
              <>
                <h3>Instances that reported recently</h3>
                {health.data.instances.map((i, n) => (
                  <HealthFacts key={n} facts={i} />
                ))}
              </>
            )}
          </>
        )}
      </section>
    </>
  );
}
