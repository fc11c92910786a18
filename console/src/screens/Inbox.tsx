/** Contact messages and the waitlist, each with its CSV export (the server guards cells against formulas). */
import { ErrorNote, Loading } from '../components/Status';
import { Table } from '../components/Table';
import { utc } from '../format';
import { useResource } from '../useResource';

type Row = Record<string, unknown>;

/** The list under whichever key the answer uses (`contacts`, `waitlist`, `data` ...). */
function rowsOf(answer: unknown): Row[] {
  if (Array.isArray(answer)) return answer as Row[];
  if (answer && typeof answer === 'object')
    for (const v of Object.values(answer)) if (Array.isArray(v)) return v as Row[];
  return [];
}

const cell = (key: string, v: unknown) =>
  v === null || v === undefined ? '' : /(_at|At)$/.test(key) ? utc(String(v)) : String(v);

function List({ title, path, csv }: { title: string; path: string; csv: string }) {
  const list = useResource<unknown>(path);
  const rows = rowsOf(list.data);
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const id = title.toLowerCase().replace(/\W+/g, '-');
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p>
        <a href={csv} download>
          Export {title.toLowerCase()} as CSV
        </a>
      </p>
      <ErrorNote>{list.error}</ErrorNote>
      {list.loading && !list.data ? (
        <Loading what={title.toLowerCase()} />
      ) : rows.length === 0 ? (
        <p>Nothing here yet.</p>
      ) : (
        <Table columns={keys.map((k) => k.replace(/_/g, ' '))}>
          {rows.map((r, n) => (
            <tr key={String(r.id ?? n)}>
              {keys.map((k) => (
                <td key={k}>{cell(k, r[k])}</td>
              ))}
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

export function InboxScreen() {
  return (
    <>
      <h1>Inbox</h1>
      <List title="Contact messages" path="/api/contacts" csv="/api/contacts.csv" />
      <List title="Waitlist" path="/api/waitlist" csv="/api/waitlist.csv" />
    </>
  );
}
