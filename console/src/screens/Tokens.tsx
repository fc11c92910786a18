/** Release tokens (admin): create one (its value is shown once), list them, revoke one. */
import { useState } from 'react';
import { TOKEN_FORM } from '@aitools/contracts/formFields';
import { api, errorText } from '../api';
import { FormInput } from '../components/FormInput';
import { refusalText, useFieldErrors } from '../fieldErrors';
import { Done, ErrorNote, Loading } from '../components/Status';
import { Table } from '../components/Table';
import { utc } from '../format';
import { useResource } from '../useResource';
import type { TokenInfo } from '../types';

export function TokensScreen() {
  const tokens = useResource<{ tokens: TokenInfo[] }>('/api/tokens');
  const [label, setLabel] = useState('');
  const [remotes, setRemotes] = useState('');
  const [created, setCreated] = useState<{ label: string; token: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const form = useFieldErrors(TOKEN_FORM, 'token');
  const { errors, formRef, refuseFailure, reset } = form;

  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    reset();
    try {
      const list = remotes
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean);
      const { token } = await api.post<{ token: string }>('/api/tokens', { label: label.trim(), remotes: list });
      setCreated({ label: label.trim(), token });
      setLabel('');
      setRemotes('');
      await tokens.reload();
    } catch (err) {
      if (!refuseFailure(err)) setError(errorText(err));
    }
  };
  const revoke = async (t: TokenInfo) => {
    setError(null);
    setCreated(null);
    try {
      await api.post(`/api/tokens/${encodeURIComponent(t.label)}/revoke`);
      setDone(`Token ${t.label} revoked.`);
      await tokens.reload();
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <>
      <h1>Release tokens</h1>
      <form ref={formRef} onSubmit={(e) => void create(e)} className="card" noValidate aria-labelledby="token-heading">
        <h2 id="token-heading">New token</h2>
        <FormInput formErrors={form} name="label" value={label} onValue={setLabel} required />
        <FormInput
          formErrors={form}
          name="remotes"
          value={remotes}
          onValue={setRemotes}
          hint="The remotes it may release, or * for every remote."
          placeholder="blog"
        />
        <button type="submit" className="btn btn--primary" disabled={!label.trim()}>
          Create token
        </button>
        <ErrorNote>{refusalText('No token created', TOKEN_FORM, errors) ?? errors.form}</ErrorNote>
      </form>
      {created && (
        <div className="note note--done" role="status">
          <p>
            Token <strong>{created.label}</strong> created. Copy it now: it is not shown again.
          </p>
          <label htmlFor="token-value">Token</label>
          <input id="token-value" readOnly value={created.token} onFocus={(e) => e.target.select()} className="mono" />
        </div>
      )}
      <ErrorNote>{error}</ErrorNote>
      <Done>{done}</Done>
      <ErrorNote>{tokens.error}</ErrorNote>
      {!tokens.data ? (
        !tokens.error && <Loading what="the tokens" />
      ) : (
        <Table caption="Release tokens" columns={['Label', 'Remotes', 'Created', 'Last used', 'State']}>
          {tokens.data.tokens.map((t) => (
            <tr key={t.label}>
              <th scope="row">{t.label}</th>
              <td>{t.remotes.join(', ')}</td>
              <td>{utc(t.createdAt)}</td>
              <td>{utc(t.lastUsedAt)}</td>
              <td>
                {t.revokedAt ? (
                  `revoked ${utc(t.revokedAt)}`
                ) : (
                  <button type="button" className="btn btn--danger" onClick={() => void revoke(t)}>
                    Revoke <span className="visually-hidden">{t.label}</span>
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}
