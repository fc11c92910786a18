/** The roles of a person, as checkboxes; a release manager's remotes as a comma-separated list. */
import { useId } from 'react';
import type { PlainRole, Role } from '../types';

const PLAIN: { role: PlainRole; hint: string }[] = [
  { role: 'viewer', hint: 'sees every dashboard, changes nothing' },
  { role: 'moderator', hint: 'submissions, inbox, waitlist, CSV exports' },
  { role: 'editor', hint: "the directory's tools and the blog's posts" },
  { role: 'admin', hint: 'people, roles, invitations, release tokens, the audit log' },
];

export interface RoleDraft {
  plain: Set<PlainRole>;
  releaseManager: boolean;
  remotes: string;
}

export function draftOf(roles: Role[]): RoleDraft {
  const rm = roles.find((r) => r.role === 'release-manager');
  return {
    plain: new Set(roles.flatMap((r) => (r.role === 'release-manager' ? [] : [r.role]))),
    releaseManager: !!rm,
    remotes: rm && rm.role === 'release-manager' ? rm.remotes.join(', ') : '',
  };
}

export function rolesOf(draft: RoleDraft): Role[] {
  const remotes = draft.remotes
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  return [
    ...PLAIN.filter((p) => draft.plain.has(p.role)).map((p) => ({ role: p.role })),
    ...(draft.releaseManager ? [{ role: 'release-manager' as const, remotes }] : []),
  ];
}

export function RoleFields({ draft, onChange }: { draft: RoleDraft; onChange(d: RoleDraft): void }) {
  const id = useId();
  const toggle = (role: PlainRole) => {
    const plain = new Set(draft.plain);
    if (plain.has(role)) plain.delete(role);
    else plain.add(role);
    onChange({ ...draft, plain });
  };
  return (
    <fieldset>
      <legend>Roles</legend>
      {PLAIN.map((p) => (
        <div className="check" key={p.role}>
          <input
            type="checkbox"
            id={`${id}-${p.role}`}
            checked={draft.plain.has(p.role)}
            onChange={() => toggle(p.role)}
            aria-describedby={`${id}-${p.role}-hint`}
          />
          <label htmlFor={`${id}-${p.role}`}>{p.role}</label>{' '}
          <span id={`${id}-${p.role}-hint`} className="muted">
            ({p.hint})
          </span>
        </div>
      ))}
      <div className="check">
        <input
          type="checkbox"
          id={`${id}-rm`}
          checked={draft.releaseManager}
          onChange={() => onChange({ ...draft, releaseManager: !draft.releaseManager })}
        />
        <label htmlFor={`${id}-rm`}>release manager</label>
      </div>
      {draft.releaseManager && (
        <div className="field">
          <label htmlFor={`${id}-remotes`}>Remotes they release (comma-separated)</label>
          <input
            id={`${id}-remotes`}
            value={draft.remotes}
            onChange={(e) => onChange({ ...draft, remotes: e.target.value })}
            placeholder="blog"
          />
        </div>
      )}
    </fieldset>
  );
}
