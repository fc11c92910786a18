/**
 * The two WebAuthn ceremonies against the console's API, through @simplewebauthn/browser: the server makes the
 * options (and its challenge), the browser's authenticator answers with user verification, the server verifies.
 */
import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { api } from './api';
import { useSession } from './session';
import type { Person } from './types';

/** The options as answered: bare, or under `options` beside the answer's `success`. */
function optionsOf<T>(answer: T | { options: T }): T {
  return answer && typeof answer === 'object' && 'options' in answer ? answer.options : answer;
}

/** Registers a passkey: `base` is /api/auth/register (an invitation: `body` has its token) or /api/auth/passkeys/add
 *  (signed in). The label goes only with the verification, which stores it. */
export async function registerPasskey(
  base: '/api/auth/register' | '/api/auth/passkeys/add',
  body: Record<string, unknown>,
  label?: string,
): Promise<{ person?: Person }> {
  const options = optionsOf(await api.post<PublicKeyCredentialCreationOptionsJSON>(`${base}/options`, body));
  const response = await startRegistration({ optionsJSON: options });
  return api.post<{ person?: Person }>(`${base}/verify`, { ...body, response, ...(label ? { label } : {}) });
}

export async function signInWithPasskey(): Promise<Person> {
  const options = optionsOf(await api.post<PublicKeyCredentialRequestOptionsJSON>('/api/auth/login/options', {}));
  const response = await startAuthentication({ optionsJSON: options });
  return (await api.post<{ person: Person }>('/api/auth/login/verify', { response })).person;
}

/** What to say when the browser's ceremony fails: a cancel is not an error worth alarming anyone about. */
export function ceremonyError(err: unknown): string {
  if (err instanceof Error && err.name === 'NotAllowedError')
    return 'The passkey prompt was cancelled or timed out. Try again.';
  return err instanceof Error ? err.message : 'The passkey could not be used.';
}

/** A screen's sign-in ceremony (sign in, or register from an invitation): busy while the browser's prompt is open,
 *  its failure as words, and on success the person signed in and taken to `to`. */
export function usePasskeySignIn(to: string) {
  const { setPerson } = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (ceremony: () => Promise<Person | undefined>) => {
    setBusy(true);
    setError(null);
    try {
      const person = await ceremony();
      if (person) setPerson(person);
      navigate(to, { replace: true });
    } catch (err) {
      setError(ceremonyError(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
