import { describe, expect, it, vi } from 'vitest';
import { mockApi } from './testing';
import { registerPasskey } from './passkey';

vi.mock('@simplewebauthn/browser', () => ({
  startRegistration: vi.fn(async ({ optionsJSON }: { optionsJSON: { challenge: string } }) => ({
    id: 'cred',
    answered: optionsJSON.challenge,
  })),
  startAuthentication: vi.fn(),
}));

describe('registering a passkey', () => {
  it('asks for options with the token alone, and sends the answer with the label to be verified', async () => {
    const calls = mockApi({
      'POST /api/auth/register/options': { success: true, options: { challenge: 'c1' } },
      'POST /api/auth/register/verify': { success: true, person: { id: 1 } },
    });
    await registerPasskey('/api/auth/register', { token: 't' }, 'laptop');
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      ['/api/auth/register/options', { token: 't' }],
      ['/api/auth/register/verify', { token: 't', response: { id: 'cred', answered: 'c1' }, label: 'laptop' }],
    ]);
  });

  it('sends no label when none was given', async () => {
    const calls = mockApi({
      'POST /api/auth/passkeys/add/options': { options: { challenge: 'c2' } },
      'POST /api/auth/passkeys/add/verify': { passkeys: [] },
    });
    await registerPasskey('/api/auth/passkeys/add', {}, '');
    expect(calls[0].body).toEqual({});
    expect(calls[1].body).toEqual({ response: { id: 'cred', answered: 'c2' } });
  });
});
