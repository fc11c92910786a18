/**
 * Categories and tags as the tools say them, each with its count; rename one, or merge it into another by giving
 * a name in use. A preview says how many tools change before anything is written (one transaction on the server).
 */
import { useState } from 'react';
import { TAXONOMY_FORM } from '@aitools/contracts/formFields';
import { api, errorText } from '../api';
import { Field } from '../components/Field';
import { labelOf, refusalText, useFieldErrors } from '../fieldErrors';
import { Done, ErrorNote, Loading } from '../components/Status';
import { Table } from '../components/Table';
import { useResource } from '../useResource';
import type { RenamePlan, Taxonomy } from '@aitools/contracts/editing';

type Kind = 'category' | 'tag';

const plural = (n: number) => `${n} tool${n === 1 ? '' : 's'}`;

export function TaxonomyScreen() {
  const data = useResource<Taxonomy>('/api/taxonomy');
  const [kind, setKind] = useState<Kind>('category');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [plan, setPlan] = useState<RenamePlan | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { errors, formRef, refuseFailure, clear, marks, reset } = useFieldErrors(TAXONOMY_FORM, 'taxonomy');

  if (data.error) return <ErrorNote>{data.error}</ErrorNote>;
  if (!data.data) return <Loading what="categories and tags" />;
  const entries = kind === 'category' ? data.data.categories : data.data.tags;
  const rename = { kind, from, to: to.trim() };

  const run = async (what: () => Promise<void>) => {
    setError(null);
    setDone(null);
    reset();
    try {
      await what();
    } catch (err) {
      if (!refuseFailure(err)) setError(errorText(err));
      setPlan(null);
    }
  };
  const preview = () => run(async () => setPlan(await api.post<RenamePlan>('/api/taxonomy/preview', rename)));
  const apply = () =>
    run(async () => {
      const r = await api.post<RenamePlan>('/api/taxonomy/rename', rename);
      setDone(`${r.merge ? 'Merged' : 'Renamed'} "${from}" into "${rename.to}": ${plural(r.tools)} changed.`);
      setPlan(null);
      setFrom('');
      setTo('');
      await data.reload();
    });

  return (
    <>
      <h1>Categories and tags</h1>
      <Done>{done}</Done>
      <ErrorNote>{error}</ErrorNote>
      <form
        ref={formRef}
        className="card"
        onSubmit={(e) => {
          e.preventDefault();
          void preview();
        }}
      >
        <h2>Rename or merge</h2>
        <div className="field">
          <label htmlFor="taxonomy-kind">{labelOf(TAXONOMY_FORM, 'kind')}</label>
          <select
            id="taxonomy-kind"
            value={kind}
            {...marks('kind')}
            onChange={(e) => {
              setKind(e.target.value as Kind);
              clear('kind');
              setFrom('');
              setPlan(null);
            }}
          >
            <option value="category">Category</option>
            <option value="tag">Tag</option>
          </select>
          {errors.kind && (
            <span id="taxonomy-kind-error" className="field__error">
              {errors.kind}
            </span>
          )}
        </div>
        <div className="field">
          <label htmlFor="taxonomy-from">{labelOf(TAXONOMY_FORM, 'from')}</label>
          <select
            id="taxonomy-from"
            value={from}
            {...marks('from')}
            onChange={(e) => {
              setFrom(e.target.value);
              clear('from');
              setPlan(null);
            }}
            required
          >
            <option value="">Choose…</option>
            {entries.map((e) => (
              <option key={e.name} value={e.name}>
                {e.name} ({e.tools})
              </option>
            ))}
          </select>
          {errors.from && (
            <span id="taxonomy-from-error" className="field__error">
              {errors.from}
            </span>
          )}
        </div>
        <Field id="taxonomy-to" label={labelOf(TAXONOMY_FORM, 'to')} error={errors.to}>
          <input
            id="taxonomy-to"
            value={to}
            list="taxonomy-names"
            onChange={(e) => {
              setTo(e.target.value);
              setPlan(null);
              clear('to');
            }}
            required
            {...marks('to')}
          />
          <datalist id="taxonomy-names">
            {entries.map((e) => (
              <option key={e.name} value={e.name} />
            ))}
          </datalist>
        </Field>
        <button type="submit" className="btn" disabled={!from || !rename.to}>
          Preview
        </button>
        <ErrorNote>{refusalText('Not changed', TAXONOMY_FORM, errors)}</ErrorNote>
        {plan && (
          <div className="confirm" role="group" aria-label="Confirm">
            <p role="status">
              {plan.merge ? 'Merge' : 'Rename'}: {plural(plan.tools)} change from "{from}" to "{rename.to}".
            </p>
            <button type="button" className="btn btn--primary" onClick={() => void apply()}>
              {plan.merge ? 'Merge' : 'Rename'} {plural(plan.tools)}
            </button>
          </div>
        )}
      </form>
      <div className="actions-grid">
        {(['categories', 'tags'] as const).map((list) => (
          <section key={list} aria-labelledby={`taxonomy-${list}`}>
            <h2 id={`taxonomy-${list}`}>{list === 'categories' ? 'Categories' : 'Tags'}</h2>
            <Table caption={list} columns={['Name', 'Tools']}>
              {data.data![list].map((e) => (
                <tr key={e.name}>
                  <td>{e.name}</td>
                  <td>{e.tools}</td>
                </tr>
              ))}
            </Table>
          </section>
        ))}
      </div>
    </>
  );
}
