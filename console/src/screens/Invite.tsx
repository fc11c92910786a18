/** /invite/<token>: checks the invitation, then registers this device's passkey and signs the person in. */
import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { api, errorText } from '../api';
import { ErrorNote, Loading } from '../components/Status';
import { registerPasskey, usePasskeySignIn } from '../passkey';
import { roleLabel } from '../roles';
import type { Role } from '../types';

export function InviteScreen() {
  const { token = '' } = useParams();
  const [invitation, setInvitation] = useState<{ name: string; roles: Role[] } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [label, setLabel] = useState('');
  const { busy, error, run } = usePasskeySignIn('/');

  useEffect(() => {
    api
      .post<{ name: string; roles: Role[] }>('/api/auth/invitation', { token })
      .then(setInvitation)
      .catch((err) => setProblem(errorText(err)));
  }, [token]);

  const register = async (event: React.FormEvent) => {
    event.preventDefault();
    await run(async () => (await registerPasskey('/api/auth/register', { token }, label.trim())).person);
  };

  return (
    <main id="main" className="container narrow">
      <h1>Your invitation</h1>
      {problem ? (
        <ErrorNote>{`This invitation cannot be used. ${problem}`}</ErrorNote>
      ) : !invitation ? (
        <Loading what="the invitation" />
      ) : (
        <form onSubmit={(e) => void register(e)}>
          <p>
            Welcome, <strong>{invitation.name}</strong>. You are invited as {invitation.roles.map(roleLabel).join(', ')}
            . Register a passkey on this device to sign in; the link works once.
          </p>
          <div className="field">
            <label htmlFor="passkey-label">Name this passkey (optional)</label>
            <input id="passkey-label" value={label} onChange={(e) => setLabel(e.target.value)} maxLength={64} />
          </div>
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {busy ? 'Waiting for your passkey…' : 'Register a passkey'}
          </button>
          <ErrorNote>{error}</ErrorNote>
        </form>
      )}
    </main>
  );
}
