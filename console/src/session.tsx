/** Who is signed in (GET /api/auth/me), shared by every screen; a 401 from any call signs the screen out. */
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { api, ApiError, setUnauthorizedHandler } from './api';
import type { Person } from './types';

interface Session {
  /** undefined while the first check runs; null when nobody is signed in. */
  person: Person | null | undefined;
  setPerson(person: Person | null): void;
  refresh(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [person, setPerson] = useState<Person | null | undefined>(undefined);
  const refresh = useCallback(async () => {
    try {
      setPerson((await api.get<{ person: Person }>('/api/auth/me')).person);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) setPerson(null);
      else throw err;
    }
  }, []);
  useEffect(() => {
    setUnauthorizedHandler(() => setPerson(null));
    refresh().catch(() => setPerson(null));
    return () => setUnauthorizedHandler(null);
  }, [refresh]);
  return <SessionContext.Provider value={{ person, setPerson, refresh }}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The signed-in person (screens behind the sign-in only). */
export function usePerson(): Person {
  const { person } = useSession();
  if (!person) throw new Error('usePerson without a signed-in person');
  return person;
}
