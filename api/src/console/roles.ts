/**
 * The console's roles (docs/operations.md, The console): what each may do is decided here and nowhere else, and the
 * server asks on every call. A person may hold several roles; a release manager is scoped to listed remotes.
 */
import type { Role } from '@aitools/contracts/console';
import { z } from 'zod';
import { REMOTE_NAMES } from '../paths';

export const ROLE_NAMES = ['viewer', 'moderator', 'editor', 'release-manager', 'admin'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

export type { Role };

const remoteName = z.enum(REMOTE_NAMES as unknown as [string, ...string[]], {
  error: (issue) => `"${String(issue.input)}" is not a remote: they are ${REMOTE_NAMES.join(', ')}`,
});

export const roleSchema = z.discriminatedUnion('role', [
  z.object({ role: z.enum(['viewer', 'moderator', 'editor', 'admin']) }).strict(),
  z
    .object({
      role: z.literal('release-manager'),
      remotes: z.array(remoteName).min(1, 'At least one remote').max(REMOTE_NAMES.length),
    })
    .strict(),
]);
export const rolesSchema = z.array(roleSchema).min(1, 'at least one role').max(ROLE_NAMES.length);

/** One entry per role name, remotes without repeats, in a stable order (what is stored and compared). */
export function normaliseRoles(roles: Role[]): Role[] {
  const out: Role[] = [];
  for (const name of ROLE_NAMES) {
    const same = roles.filter((r) => r.role === name);
    if (!same.length) continue;
    if (name === 'release-manager') {
      const remotes = new Set(same.flatMap((r) => (r.role === 'release-manager' ? r.remotes : [])));
      out.push({ role: name, remotes: REMOTE_NAMES.filter((n) => remotes.has(n)) });
    } else out.push({ role: name } as Role);
  }
  return out;
}

/** What a call needs. Reading needs any role; each change needs its own. */
export type Capability = 'read' | 'moderate' | 'edit' | 'release' | 'admin';

const GRANTS: Record<RoleName, Capability[]> = {
  viewer: ['read'],
  moderator: ['read', 'moderate'],
  editor: ['read', 'edit'],
  'release-manager': ['read', 'release'],
  admin: ['read', 'admin'],
};

/** Whether these roles allow `capability` (for 'release': on `remote`). */
export function may(roles: Role[], capability: Capability, remote?: string): boolean {
  return roles.some((r) => {
    if (!GRANTS[r.role].includes(capability)) return false;
    if (capability !== 'release') return true;
    return r.role === 'release-manager' && remote !== undefined && r.remotes.includes(remote);
  });
}

/** "admin, release-manager(blog)": roles in a line of the audit trail or the CLI. */
export const describeRoles = (roles: Role[]): string =>
  roles.map((r) => (r.role === 'release-manager' ? `release-manager(${r.remotes.join(',')})` : r.role)).join(', ');
