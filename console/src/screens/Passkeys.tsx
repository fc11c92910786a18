/** The signed-in person's passkeys: add one on this device, remove one (the server keeps the last). */
import { useState } from 'react';
import { PASSKEY_FORM } from '@aitools/contracts/formFields';
import { api, errorText } from '../api';
import { Field } from '../components/Field';
import { labelOf, refusalText, useFieldErrors } from '../fieldErrors';
import { Done, ErrorNote, Loading } from '../components/Status';
import { ACTIONS, Table } from '../components/Table';
import { utc } from '../format';
import { ceremonyError, registerPasskey } from '../passkey';
import { useResource } from '../useResource';
import type { Passkey } from '../types';

export function PasskeysScreen() {
  const passkeys = useResource<{ passkeys: Passkey[] }>('/api/auth/passkeys');
  const [label, setLabel] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const list = passkeys.data?.passkeys ?? [];
  const { errors, formRef, refuseFailure, clear, marks, reset } = useFieldErrors(PASSKEY_FORM, 'new-passkey');

  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    reset();
    try {
      await registerPasskey('/api/auth/passkeys/add', {}, label.trim());
      setDone('Passkey added.');
      setLabel('');
      await passkeys.reload();
    } catch (err) {
      if (!refuseFailure(err)) setError(ceremonyError(err));
    }
  };
  const remove = async (p: Passkey) => {
    setError(null);
    try {
      await api.post(`/api/auth/passkeys/${encodeURIComponent(p.id)}/delete`);
      setDone(`Passkey ${p.label} removed.`);
      await passkeys.reload();
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <>
      <h1>My passkeys</h1>
      <Done>{done}</Done>
      <ErrorNote>{error}</ErrorNote>
      <ErrorNote>{passkeys.error}</ErrorNote>
      {!passkeys.data ? (
        !passkeys.error && <Loading what="your passkeys" />
      ) : (
        <Table caption="Your passkeys" columns={['Passkey', 'Added', 'Last used', ACTIONS]}>
          {list.map((p) => (
            <tr key={p.id}>
              <th scope="row">{p.label}</th>
              <td>{utc(p.createdAt)}</td>
              <td>{utc(p.lastUsedAt)}</td>
              <td>
                <button
                  type="button"
                  className="btn btn--danger"
                  onClick={() => void remove(p)}
                  disabled={list.length === 1}
                  title={list.length === 1 ? 'Your only passkey cannot be removed' : undefined}
                >
                  Remove <span className="visually-hidden">{p.label}</span>
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <form ref={formRef} onSubmit={(e) => void add(e)} className="card" aria-labelledby="add-passkey-heading">
        <h2 id="add-passkey-heading">Add a passkey</h2>
        <Field id="new-passkey-label" label={labelOf(PASSKEY_FORM, 'label')} error={errors.label}>
          <input
            id="new-passkey-label"
            value={label}
            onChange={(e) => {
              setLabel(e.target.value);
              clear('label');
            }}
            maxLength={64}
            {...marks('label')}
          />
        </Field>
        <button type="submit" className="btn btn--primary">
          Add a passkey on this device
        </button>
        <ErrorNote>{refusalText('No passkey added', PASSKEY_FORM, errors)}</ErrorNote>
      </form>
    </>
  );
}
