/** The audit trail (admin): newest first, filtered by actor, action and target; older pages on request. */
import { useState } from 'react';
import { api, errorText } from '../api';
import { ErrorNote, Loading } from '../components/Status';
import { Table } from '../components/Table';
import { utc } from '../format';
import { useResource } from '../useResource';
import type { AuditEntry } from '../types';

interface Page {
  entries: AuditEntry[];
  next?: string | number | null;
}

const query = (filters: Record<string, string>, before?: string | number) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v.trim()) q.set(k, v.trim());
  if (before !== undefined) q.set('before', String(before));
  const s = q.toString();
  return `/api/audit${s ? `?${s}` : ''}`;
};

export function AuditScreen() {
  const [form, setForm] = useState({ actor: '', action: '', target: '' });
  const [filters, setFilters] = useState(form);
  const page = useResource<Page>(query(filters));
  const [more, setMore] = useState<{ key: string; entries: AuditEntry[]; next?: Page['next'] }>({
    key: '',
    entries: [],
  });
  const [error, setError] = useState<string | null>(null);
  const key = query(filters);
  const extra = more.key === key ? more : { key, entries: [], next: undefined };
  const entries = [...(page.data?.entries ?? []), ...extra.entries];
  const next = extra.entries.length ? extra.next : page.data?.next;

  const loadMore = async () => {
    if (next === undefined || next === null) return;
    try {
      const p = await api.get<Page>(query(filters, next));
      setMore({ key, entries: [...extra.entries, ...p.entries], next: p.next });
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <>
      <h1>Audit log</h1>
      <form
        className="filters"
        role="search"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters(form);
        }}
      >
        {(['actor', 'action', 'target'] as const).map((f) => (
          <div className="field" key={f}>
            <label htmlFor={`audit-${f}`}>{f[0].toUpperCase() + f.slice(1)}</label>
            <input id={`audit-${f}`} value={form[f]} onChange={(e) => setForm({ ...form, [f]: e.target.value })} />
          </div>
        ))}
        <button type="submit" className="btn btn--primary">
          Filter
        </button>
      </form>
      <ErrorNote>{page.error ?? error}</ErrorNote>
      {!page.data ? (
        !page.error && <Loading what="the audit log" />
      ) : entries.length === 0 ? (
        <p>No entry matches.</p>
      ) : (
        <Table
          caption="Audit entries, newest first"
          columns={['When (UTC)', 'Actor', 'Action', 'Target', 'Outcome', 'Summary', 'Address']}
        >
          {entries.map((e) => (
            <tr key={e.id}>
              <td>{utc(e.at)}</td>
              <td>{e.actor}</td>
              <td>{e.action}</td>
              <td>{e.target}</td>
              <td>{e.outcome}</td>
              <td>{e.summary ?? ''}</td>
              <td>{e.address ?? ''}</td>
            </tr>
          ))}
        </Table>
      )}
      {next !== undefined && next !== null && (
        <button type="button" className="btn" onClick={() => void loadMore()}>
          Older entries
        </button>
      )}
    </>
  );
}
