/** The queue of pending submissions: approve (category, pricing) or reject (a reason), one or several at once. */
import { useState } from 'react';
import { CATEGORIES } from '@aitools/contracts/toolQuery';
import { api, errorText } from '../api';
import { REJECT_FORM } from '@aitools/contracts/formFields';
import { Confirm } from '../components/Confirm';
import { Field } from '../components/Field';
import { labelOf, refusalText, useFieldErrors } from '../fieldErrors';
import { Done, ErrorNote, Loading } from '../components/Status';
import { Table } from '../components/Table';
import { utc } from '../format';
import { can } from '../roles';
import { usePerson } from '../session';
import { useResource } from '../useResource';
import type { Submission } from '../types';

export const PRICINGS = ['Free', 'Freemium', 'Paid'];
const plural = (n: number) => `${n} submission${n === 1 ? '' : 's'}`;

type Pending = { kind: 'approve' } | { kind: 'reject' };

export function SubmissionsScreen() {
  const person = usePerson();
  const moderator = can.moderate(person);
  const queue = useResource<{ submissions: Submission[] }>('/api/submissions?status=pending');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [category, setCategory] = useState('AI Assistants');
  const [pricing, setPricing] = useState('Free');
  const [reason, setReason] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const submissions = queue.data?.submissions ?? [];
  // A refused reason is marked beside its field, which takes focus (fieldErrors.ts).
  const rejection = useFieldErrors(REJECT_FORM, 'reject');

  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allSelected = submissions.length > 0 && submissions.every((s) => selected.has(s.id));

  const act = async () => {
    if (!pending) return;
    const ids = [...selected];
    setError(null);
    rejection.reset();
    try {
      if (pending.kind === 'approve') {
        const r = await api.post<{ approved: number }>('/api/submissions/approve', { ids, category, pricing });
        setDone(`Approved ${plural(r?.approved ?? ids.length)}.`);
      } else {
        const r = await api.post<{ rejected: number }>('/api/submissions/reject', { ids, reason: reason.trim() });
        setDone(`Rejected ${plural(r?.rejected ?? ids.length)}.`);
        setReason('');
      }
      setSelected(new Set());
    } catch (err) {
      if (pending.kind !== 'reject' || !rejection.refuseFailure(err)) setError(errorText(err));
    }
    setPending(null);
    await queue.reload();
  };

  return (
    <>
      <h1>Submissions</h1>
      <ErrorNote>{queue.error}</ErrorNote>
      <Done>{done}</Done>
      <ErrorNote>{error}</ErrorNote>
      {queue.loading && !queue.data ? (
        <Loading what="the queue" />
      ) : submissions.length === 0 ? (
        <p>No submission is waiting.</p>
      ) : (
        <>
          <Table
            caption="Pending submissions"
            columns={[
              ...(moderator
                ? [
                    <input
                      type="checkbox"
                      aria-label="Select every submission"
                      checked={allSelected}
                      onChange={() => setSelected(allSelected ? new Set() : new Set(submissions.map((s) => s.id)))}
                    />,
                  ]
                : []),
              'Name',
              'Type',
              'Website',
              'Description',
              'Sent',
            ]}
          >
            {submissions.map((s) => (
              <tr key={s.id}>
                {moderator && (
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select ${s.name}`}
                      checked={selected.has(s.id)}
                      onChange={() => toggle(s.id)}
                    />
                  </td>
                )}
                <th scope="row">{s.name}</th>
                <td>{s.tool_type ?? '—'}</td>
                <td className="break">{s.website_url ?? '—'}</td>
                <td>{s.description ?? ''}</td>
                <td>{utc(s.created_at)}</td>
              </tr>
            ))}
          </Table>
          {moderator && (
            <div className="actions-grid">
              <fieldset>
                <legend>Approve the selected</legend>
                <div className="field">
                  <label htmlFor="approve-category">Category</label>
                  <select id="approve-category" value={category} onChange={(e) => setCategory(e.target.value)}>
                    {CATEGORIES.filter((c) => c !== 'All').map((c) => (
                      <option key={c}>{c}</option>
                    ))}
                  </select>
                </div>
                <div className="field">
                  <label htmlFor="approve-pricing">Pricing</label>
                  <select id="approve-pricing" value={pricing} onChange={(e) => setPricing(e.target.value)}>
                    {PRICINGS.map((p) => (
                      <option key={p}>{p}</option>
                    ))}
                  </select>
                </div>
                <button
                  type="button"
                  className="btn btn--primary"
                  disabled={selected.size === 0}
                  onClick={() => setPending({ kind: 'approve' })}
                >
                  Approve selected…
                </button>
              </fieldset>
              <form ref={rejection.formRef} onSubmit={(e) => e.preventDefault()} noValidate>
                <fieldset>
                  <legend>Reject the selected</legend>
                  <Field id="reject-reason" label={labelOf(REJECT_FORM, 'reason')} error={rejection.errors.reason}>
                    <textarea
                      id="reject-reason"
                      value={reason}
                      onChange={(e) => {
                        setReason(e.target.value);
                        rejection.clear('reason');
                      }}
                      rows={2}
                      {...rejection.marks('reason')}
                    />
                  </Field>
                  <button
                    type="button"
                    className="btn btn--danger"
                    disabled={selected.size === 0 || !reason.trim()}
                    onClick={() => setPending({ kind: 'reject' })}
                  >
                    Reject selected…
                  </button>
                  <ErrorNote>
                    {refusalText('Not rejected', REJECT_FORM, rejection.errors) ?? rejection.errors.form}
                  </ErrorNote>
                </fieldset>
              </form>
            </div>
          )}
          {pending && (
            <Confirm
              question={
                pending.kind === 'approve'
                  ? `Approve ${plural(selected.size)} as ${category}, ${pricing}? They are published at once.`
                  : `Reject ${plural(selected.size)}?`
              }
              action={
                pending.kind === 'approve' ? `Approve ${plural(selected.size)}` : `Reject ${plural(selected.size)}`
              }
              onConfirm={() => void act()}
              onCancel={() => setPending(null)}
            />
          )}
        </>
      )}
    </>
  );
}
