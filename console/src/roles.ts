/**
 * What the signed-in person's roles let the UI offer. The server checks every call on its own; this only hides
 * what would be refused (the roles table: docs/operations.md, The console).
 */
import type { Person, PlainRole, Role } from './types';

export function hasRole(person: Person | null, role: PlainRole): boolean {
  return !!person?.roles.some((r) => r.role === role);
}

/** The remotes the person may release, canary, promote, abort and roll back. */
export function releaseRemotes(person: Person | null): string[] {
  return (person?.roles ?? []).flatMap((r) => (r.role === 'release-manager' ? r.remotes : []));
}

export const can = {
  /** Submissions, the contact inbox and the waitlist: moderators act, every role reads. */
  readModeration: (p: Person | null) => !!p && p.roles.length > 0,
  moderate: (p: Person | null) => hasRole(p, 'moderator'),
  release: (p: Person | null, remote: string) => releaseRemotes(p).includes(remote),
  admin: (p: Person | null) => hasRole(p, 'admin'),
  /** Posts and tools: the editor role only (the server refuses every other role's call). */
  edit: (p: Person | null) => hasRole(p, 'editor'),
  /** The registry's jobs (their runs, "run now"): editors and admins. */
  runJobs: (p: Person | null) => hasRole(p, 'editor') || hasRole(p, 'admin'),
};

/** "release manager (blog, forms)" */
export function roleLabel(role: Role): string {
  return role.role === 'release-manager' ? `release manager (${role.remotes.join(', ')})` : role.role;
}
