/**
 * One tool for an editor: every field its page shows, checked with the contracts' rules before sending (the server
 * checks again), each refused field marked beside itself with focus on the first (fieldErrors.ts); hide (after a
 * confirmation) or show it; its versions with their changes and a restore. A save made from an older version is
 * refused (409) and the newer one is offered to load. Unsaved changes are kept on the device until saved
 * (keptDraft.tsx).
 */
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { checkToolEdit, type ToolEditInput } from '@aitools/contracts/toolEdit';
import { TOOL_FORM } from '@aitools/contracts/formFields';
import { api, ApiError, errorText } from '../api';
import { Confirm } from '../components/Confirm';
import { Field } from '../components/Field';
import { labelOf, refusalText, useFieldErrors } from '../fieldErrors';
import { KeptDraftOffer, useKeptDraft } from '../keptDraft';
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
  /** The tool's page on the public site. */
  page: string;
  edit: Record<string, unknown>;
}
/** A newer version a refused save names. */
type Latest = Revision<Record<string, unknown>>;

/** The form's text for each field (tags one line, comma-separated; the MCP record as JSON), and the lists. */
type Texts = Record<(typeof TEXT_FIELDS)[number]['name'] | 'tags' | 'mcpBadge' | 'mcpServer', string>;
type Form = Texts & ListsForm;

/** The text fields in the order shown (their labels: contracts/formFields.ts). */
const TEXT_FIELDS = [
  { name: 'name' },
  { name: 'slug' },
  { name: 'description', long: true },
  { name: 'fullDescription', long: true },
  { name: 'website' },
  { name: 'category' },
  { name: 'pricing' },
  { name: 'logo' },
  { name: 'company' },
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
  const [form, setFormState] = useState<Form | null>(null);
  const [base, setBase] = useState(0);
  const { errors, formRef, refuse, refuseFailure, clear, marks, reset } = useFieldErrors(TOOL_FORM, 'tool');
  const [saveError, setSaveError] = useState<string | null>(null);
  const [confirmHide, setConfirmHide] = useState(false);
  const unsaved = useKeptDraft<Form>(`tool:${slug}`);
  const [offer, setOffer] = useState(() => unsaved.kept);
  const { keep, discard } = unsaved;
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [newer, setNewer] = useState<Latest | null>(null);
  const [diff, setDiff] = useState<{ from: number; lines: DiffLine[]; whole?: boolean } | null>(null);

  useEffect(() => {
    if (!tool.data) return;
    setFormState(toForm(tool.data.edit));
    setBase(tool.data.version);
  }, [tool.data]);

  /** A change typed by the editor: its fields' reasons go, and it is kept on the device until saved. */
  const setForm = (next: Form) => {
    for (const key of Object.keys(next) as (keyof Form)[]) if (next[key] !== form?.[key]) clear(key);
    setFormState(next);
    keep(next, base);
  };

  if (tool.error) return <ErrorNote>{tool.error}</ErrorNote>;
  if (!tool.data || !form) return <Loading what="the tool" />;
  const hidden = tool.data.hidden;
  /** The tool as visitors know it (the saved name, whatever the form holds now). */
  const savedName = typeof tool.data.edit.name === 'string' && tool.data.edit.name ? tool.data.edit.name : slug;

  const fieldProps = (name: keyof Texts) => ({
    id: `tool-${name}`,
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value }),
    ...marks(name),
  });

  /** Runs a change; a refused one shows the newer version (409) or its reason. */
  const act = async (what: () => Promise<string>) => {
    setError(null);
    setDone(null);
    try {
      setDone(await what());
      setNewer(null);
    } catch (err) {
      const body = err instanceof ApiError ? (err.body as { latest?: Latest }) : undefined;
      if (err instanceof ApiError && err.status === 409 && body?.latest) setNewer(body.latest);
      setError(errorText(err));
    }
  };

  /** A save: checked here first; a refusal (here or the server's) marks its fields beside the Save button's form. */
  const save = async () => {
    reset();
    setSaveError(null);
    setDone(null);
    const read = fromForm(form);
    if (!('edit' in read)) return refuse(read);
    const checked = checkToolEdit(read.edit);
    if (!checked.success) return refuse(checked.fieldErrors);
    try {
      const r = await api.post<{ version: number; tool: { slug: string } }>(`/api/tools/${encodeURIComponent(slug)}`, {
        base,
        edit: checked.data,
      });
      setBase(r.version);
      discard();
      setNewer(null);
      setDone(`Saved as version ${r.version}.`);
      await versions.reload();
      if (r.tool.slug !== slug) navigate(`/tools/${encodeURIComponent(r.tool.slug)}`, { replace: true });
    } catch (err) {
      const latest = err instanceof ApiError && err.status === 409 ? (err.body as { latest?: Latest }).latest : null;
      if (latest) setNewer(latest);
      else if (!refuseFailure(err)) setSaveError(errorText(err));
    }
  };

  const restoreKept = () => {
    if (!offer) return;
    setFormState(offer.value);
    // The save names the version the kept changes started from: a newer one is shown, never written over.
    if (offer.base) setBase(offer.base);
    setOffer(null);
  };

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
      const r = await api.get<{ lines: DiffLine[]; whole: boolean }>(
        `/api/tools/${encodeURIComponent(slug)}/versions/${from}/diff`,
      );
      setDiff({ from, lines: r.lines, whole: r.whole });
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
        <a href={tool.data.page} className="muted">
          /tool/{slug}
        </a>{' '}
        · version {base || 'not yet saved here'}
      </p>
      <Done>{done}</Done>
      <ErrorNote>{error}</ErrorNote>
      {offer && (
        <KeptDraftOffer
          kept={offer}
          onRestore={restoreKept}
          onDiscard={() => {
            discard();
            setOffer(null);
          }}
        />
      )}
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
              setFormState(toForm(newer.body));
              discard();
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
        ref={formRef}
        className="card"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {TEXT_FIELDS.map((f) => (
          <Field key={f.name} id={`tool-${f.name}`} label={labelOf(TOOL_FORM, f.name)} error={errors[f.name]}>
            {'long' in f ? (
              <textarea rows={f.name === 'description' ? 3 : 8} {...fieldProps(f.name)} />
            ) : (
              <input {...fieldProps(f.name)} />
            )}
          </Field>
        ))}
        <Field id="tool-tags" label={labelOf(TOOL_FORM, 'tags')} error={errors.tags}>
          <input {...fieldProps('tags')} />
        </Field>
        <Field id="tool-mcpBadge" label={labelOf(TOOL_FORM, 'mcpBadge')} error={errors.mcpBadge}>
          <select {...fieldProps('mcpBadge')}>
            <option value="">None</option>
            <option value="Official">Official</option>
            <option value="Community">Community</option>
          </select>
        </Field>
        <Field id="tool-mcpServer" label={labelOf(TOOL_FORM, 'mcpServer')} error={errors.mcpServer}>
          <textarea rows={10} className="mono" {...fieldProps('mcpServer')} />
        </Field>
        <ToolLists form={form} errors={errors} onChange={(lists) => setForm({ ...form, ...lists })} />
        <button type="submit" className="btn btn--primary">
          Save
        </button>
        {/* Beside the Save button: what was refused, the reasons being beside their fields. */}
        <ErrorNote>{refusalText('Not saved', TOOL_FORM, errors) ?? errors.form ?? saveError}</ErrorNote>
      </form>
      <section className="card" aria-labelledby="tool-visibility">
        <h2 id="tool-visibility">Visibility</h2>
        {hidden ? (
          <button type="button" className="btn" onClick={() => void setHidden(false)}>
            Show this tool again
          </button>
        ) : confirmHide ? (
          <Confirm
            question={`Hide ${savedName}? Its page answers 410 Gone and it leaves the directory, until it is shown again.`}
            action={`Hide ${savedName}`}
            danger
            onConfirm={() => {
              setConfirmHide(false);
              void setHidden(true);
            }}
            onCancel={() => setConfirmHide(false)}
          />
        ) : (
          <button type="button" className="btn btn--danger" onClick={() => setConfirmHide(true)}>
            Hide this tool…
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
            whole={diff.whole}
          />
        )}
      </section>
    </>
  );
}
