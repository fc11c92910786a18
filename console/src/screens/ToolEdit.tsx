/**
 * One tool for an editor: every field its page shows, checked with the contracts' rules before sending (the server
 * checks again); hide or show it; its versions with their changes and a restore. A save made from an older version
 * is refused (409) and the newer one is offered to load.
 */
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { checkToolEdit, type ToolEditInput } from '@aitools/contracts/toolEdit';
import { api, ApiError, errorText } from '../api';
import { Field } from '../components/Field';
import { Done, ErrorNote, Loading } from '../components/Status';
import { Table } from '../components/Table';
import { utc } from '../format';
import { useResource } from '../useResource';
import { listsFromForm, listsToForm, ToolLists, type ListsForm } from './ToolLists';
import type { DiffLine, Revision, RevisionSummary } from '@aitools/contracts/editing';
import { VersionDiff } from '../components/VersionDiff';

interface Loaded {
  version: number;
  hidden: boolean;
  edit: Record<string, unknown>;
}
/** A newer version a refused save names. */
type Latest = Revision<Record<string, unknown>>;

/** The form's text for each field (tags one line, comma-separated; the MCP record as JSON), and the lists. */
type Texts = Record<(typeof TEXT_FIELDS)[number]['name'] | 'tags' | 'mcpBadge' | 'mcpServer', string>;
type Form = Texts & ListsForm;

const TEXT_FIELDS = [
  { name: 'name', label: 'Name' },
  { name: 'slug', label: 'Slug (the address /tool/…)' },
  { name: 'description', label: 'Description', long: true },
  { name: 'fullDescription', label: 'Full description', long: true },
  { name: 'website', label: 'Website URL' },
  { name: 'category', label: 'Category' },
  { name: 'pricing', label: 'Pricing' },
  { name: 'logo', label: 'Logo (web address or /images/… path)' },
  { name: 'company', label: 'Company' },
] as const;

const text = (v: unknown) => (typeof v === 'string' ? v : '');

export function toForm(edit: Record<string, unknown>): Form {
  const form: Form = {
    ...(Object.fromEntries(TEXT_FIELDS.map((f) => [f.name, text(edit[f.name])])) as Texts),
    ...listsToForm(edit),
  };
  form.tags = Array.isArray(edit.tags) ? edit.tags.join(', ') : '';
  form.mcpBadge = text(edit.mcpBadge);
  form.mcpServer = edit.mcpServer ? JSON.stringify(edit.mcpServer, null, 2) : '';
  return form;
}

/** The edit the form says, or the reason its MCP record is not JSON. */
export function fromForm(form: Form): { edit: ToolEditInput } | { mcpServer: string } {
  let mcpServer: unknown = null;
  if (form.mcpServer.trim())
    try {
      mcpServer = JSON.parse(form.mcpServer);
    } catch {
      return { mcpServer: 'The MCP record must be JSON (a server.json document)' };
    }
  const edit: Record<string, unknown> = Object.fromEntries(TEXT_FIELDS.map((f) => [f.name, form[f.name]]));
  edit.tags = form.tags
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (form.mcpBadge) edit.mcpBadge = form.mcpBadge;
  edit.mcpServer = mcpServer;
  return { edit: { ...edit, ...listsFromForm(form) } as ToolEditInput };
}

export function ToolEditScreen() {
  const { slug = '' } = useParams();
  const navigate = useNavigate();
  const tool = useResource<Loaded>(`/api/tools/${encodeURIComponent(slug)}`);
  const versions = useResource<{ versions: RevisionSummary[] }>(`/api/tools/${encodeURIComponent(slug)}/versions`);
  const [form, setForm] = useState<Form | null>(null);
  const [base, setBase] = useState(0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [newer, setNewer] = useState<Latest | null>(null);
  const [diff, setDiff] = useState<{ from: number; lines: DiffLine[] } | null>(null);

  useEffect(() => {
    if (!tool.data) return;
    setForm(toForm(tool.data.edit));
    setBase(tool.data.version);
  }, [tool.data]);

  if (tool.error) return <ErrorNote>{tool.error}</ErrorNote>;
  if (!tool.data || !form) return <Loading what="the tool" />;
  const hidden = tool.data.hidden;

  const fieldProps = (name: keyof Texts) => ({
    id: `tool-${name}`,
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value }),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `tool-${name}-error` : undefined,
  });

  /** Runs a change; a refused one shows its reasons (400), or the newer version (409). */
  const act = async (what: () => Promise<string>) => {
    setError(null);
    setDone(null);
    try {
      setDone(await what());
      setErrors({});
      setNewer(null);
    } catch (err) {
      const body =
        err instanceof ApiError ? (err.body as { fieldErrors?: Record<string, string>; latest?: Latest }) : undefined;
      if (body?.fieldErrors) setErrors(body.fieldErrors);
      if (err instanceof ApiError && err.status === 409 && body?.latest) setNewer(body.latest);
      setError(errorText(err));
    }
  };

  const save = () =>
    act(async () => {
      const read = fromForm(form);
      if (!('edit' in read)) {
        setErrors(read);
        throw new Error('Not saved: the MCP record is not JSON.');
      }
      const checked = checkToolEdit(read.edit);
      if (!checked.success) {
        setErrors(checked.fieldErrors);
        throw new Error(`Not saved: ${Object.keys(checked.fieldErrors).join(', ')}.`);
      }
      const r = await api.post<{ version: number; tool: { slug: string } }>(`/api/tools/${encodeURIComponent(slug)}`, {
        base,
        edit: checked.data,
      });
      setBase(r.version);
      await versions.reload();
      if (r.tool.slug !== slug) navigate(`/tools/${encodeURIComponent(r.tool.slug)}`, { replace: true });
      return `Saved as version ${r.version}.`;
    });

  const setHidden = (next: boolean) =>
    act(async () => {
      await api.post(`/api/tools/${encodeURIComponent(slug)}/${next ? 'hide' : 'unhide'}`);
      await tool.reload();
      return next ? 'Hidden: its page answers 410 Gone.' : 'Shown again.';
    });

  const restore = (version: number) =>
    act(async () => {
      const r = await api.post<{ version: number; tool: { slug: string } }>(
        `/api/tools/${encodeURIComponent(slug)}/versions/${version}/restore`,
        { base },
      );
      await versions.reload();
      if (r.tool.slug !== slug) navigate(`/tools/${encodeURIComponent(r.tool.slug)}`, { replace: true });
      else await tool.reload();
      return `Version ${version} restored as version ${r.version}.`;
    });

  const showChanges = async (from: number) => {
    try {
      const r = await api.get<{ lines: DiffLine[] }>(`/api/tools/${encodeURIComponent(slug)}/versions/${from}/diff`);
      setDiff({ from, lines: r.lines });
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <>
      <h1>
        {form.name || slug} {hidden && <span className="muted">(hidden)</span>}
      </h1>
      <p>
        <a href={`/tool/${encodeURIComponent(slug)}`} className="muted">
          /tool/{slug}
        </a>{' '}
        · version {base || 'not yet saved here'}
      </p>
      <Done>{done}</Done>
      <ErrorNote>{error}</ErrorNote>
      {newer && (
        <div className="confirm" role="group" aria-label="Newer version">
          <p>
            Version {newer.version}, saved by {newer.author}, is newer than the one you started from. Your changes were
            not saved.
          </p>
          <button
            type="button"
            className="btn"
            onClick={() => {
              setForm(toForm(newer.body));
              setBase(newer.version);
              setNewer(null);
              setError(null);
            }}
          >
            Load version {newer.version}
          </button>
        </div>
      )}
      <form
        className="card"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {TEXT_FIELDS.map((f) => (
          <Field key={f.name} id={`tool-${f.name}`} label={f.label} error={errors[f.name]}>
            {'long' in f ? (
              <textarea rows={f.name === 'description' ? 3 : 8} {...fieldProps(f.name)} />
            ) : (
              <input {...fieldProps(f.name)} />
            )}
          </Field>
        ))}
        <Field id="tool-tags" label="Tags (comma-separated)" error={errors.tags}>
          <input {...fieldProps('tags')} />
        </Field>
        <Field id="tool-mcpBadge" label="MCP badge" error={errors.mcpBadge}>
          <select {...fieldProps('mcpBadge')}>
            <option value="">None</option>
            <option value="Official">Official</option>
            <option value="Community">Community</option>
          </select>
        </Field>
        <Field id="tool-mcpServer" label="MCP registry record (server.json; empty for none)" error={errors.mcpServer}>
          <textarea rows={10} className="mono" {...fieldProps('mcpServer')} />
        </Field>
        <ToolLists form={form} errors={errors} onChange={(lists) => setForm({ ...form, ...lists })} />
        <ErrorNote>{errors.form}</ErrorNote>
        <button type="submit" className="btn btn--primary">
          Save
        </button>
      </form>
      <section className="card" aria-labelledby="tool-visibility">
        <h2 id="tool-visibility">Visibility</h2>
        {hidden ? (
          <button type="button" className="btn" onClick={() => void setHidden(false)}>
            Show this tool again
          </button>
        ) : (
          <button type="button" className="btn btn--danger" onClick={() => void setHidden(true)}>
            Hide this tool
          </button>
        )}
      </section>
      <section aria-labelledby="tool-versions">
        <h2 id="tool-versions">Versions</h2>
        {!versions.data?.versions.length ? (
          <p>No version saved here yet: the first save keeps the tool as it was as version 1.</p>
        ) : (
          <Table caption="Versions" columns={['Version', 'By', 'When (UTC)', 'Actions']}>
            {versions.data.versions.map((v) => (
              <tr key={v.version}>
                <td>{v.version}</td>
                <td>{v.author}</td>
                <td>{utc(v.created_at)}</td>
                <td>
                  <button type="button" className="btn" onClick={() => void showChanges(v.version)}>
                    Changes since v{v.version}
                  </button>
                  {v.version !== base && (
                    <button type="button" className="btn" onClick={() => void restore(v.version)}>
                      Restore v{v.version}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
        {diff && (
          <VersionDiff
            caption={`From version ${diff.from} to the newest`}
            label={`Changes from version ${diff.from}`}
            lines={diff.lines}
          />
        )}
      </section>
    </>
  );
}
