/** The signed-in person's passkeys: add one on this device, remove one (the server keeps the last). */
import { useState } from 'react';
import { api, errorText } from '../api';
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

  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await registerPasskey('/api/auth/passkeys/add', {}, label.trim());
      setDone('Passkey added.');
      setLabel('');
      await passkeys.reload();
    } catch (err) {
      setError(ceremonyError(err));
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
      <form onSubmit={(e) => void add(e)} className="card">
        <h2>Add a passkey</h2>
        <div className="field">
          <label htmlFor="new-passkey-label">Name (optional)</label>
          <input id="new-passkey-label" value={label} onChange={(e) => setLabel(e.target.value)} maxLength={64} />
        </div>
        <button type="submit" className="btn btn--primary">
          Add a passkey on this device
        </button>
      </form>
    </>
  );
}
