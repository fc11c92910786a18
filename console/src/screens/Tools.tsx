/** The editors' tools: every tool, hidden ones included, found by a part of its name or slug. */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ErrorNote, Loading } from '../components/Status';
import { Table } from '../components/Table';
import { useResource } from '../useResource';
import type { EditorToolRow } from '@aitools/contracts/editing';

export function ToolsScreen() {
  const [search, setSearch] = useState('');
  const list = useResource<{ tools: EditorToolRow[] }>(`/api/tools?search=${encodeURIComponent(search.trim())}`);
  const tools = list.data?.tools ?? [];
  return (
    <>
      <h1>Tools</h1>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="tools-search">Search by name or slug</label>
          <input id="tools-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
      </form>
      <ErrorNote>{list.error}</ErrorNote>
      {list.loading && !list.data ? (
        <Loading what="the tools" />
      ) : tools.length === 0 ? (
        <p>No tool matches.</p>
      ) : (
        <Table caption="Tools" columns={['Name', 'Slug', 'Category', 'Pricing', 'Shown']}>
          {tools.map((t) => (
            <tr key={t.id}>
              <td>
                <Link to={`/tools/${encodeURIComponent(t.slug)}`}>{t.name}</Link>
              </td>
              <td className="mono">{t.slug}</td>
              <td>{t.category}</td>
              <td>{t.pricing}</td>
              <td>{t.hidden ? 'Hidden' : 'Shown'}</td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}
