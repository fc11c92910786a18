import { Navigate, useLocation } from 'react-router-dom';
import { ErrorNote } from '../components/Status';
import { signInWithPasskey, usePasskeySignIn } from '../passkey';
import { useSession } from '../session';

export function SignInScreen() {
  const { person } = useSession();
  const from = (useLocation().state as { from?: string } | null)?.from ?? '/';
  const { busy, error, run } = usePasskeySignIn(from);
  if (person) return <Navigate to={from} replace />;
  const signIn = () => run(signInWithPasskey);
  return (
    <main id="main" className="container narrow">
      <h1>Sign in to the console</h1>
      <p>
        The console is for the people who run the site. Sign in with the passkey you registered from your invitation.
      </p>
      <button type="button" className="btn btn--primary" onClick={() => void signIn()} disabled={busy}>
        {busy ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
      </button>
      <ErrorNote>{error}</ErrorNote>
      <p className="muted">No passkey yet? Ask an admin for an invitation link.</p>
    </main>
  );
}
