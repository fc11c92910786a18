/** Loading, failure and success notices, announced to screen readers (status: polite; alert: at once). */
import type { ReactNode } from 'react';

export function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="muted">
      Loading {what}…
    </p>
  );
}

export function ErrorNote({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p role="alert" className="note note--error">
      {children}
    </p>
  );
}

export function Done({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p role="status" className="note note--done">
      {children}
    </p>
  );
}
