/**
 * The roles of a person, as checkboxes; a release manager's remotes as a comma-separated list. A refused choice is
 * marked as any field is (fieldErrors.ts): `roles` on the checkboxes, `remotes` on the list, each reason beside it.
 */
import type { FieldErrors } from '@aitools/contracts/answers';
import { INVITE_FORM } from '@aitools/contracts/formFields';
import { Field } from './Field';
import { labelOf } from '../fieldErrors';
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

export function RoleFields({
  id,
  draft,
  errors = {},
  onChange,
}: {
  /** The form's id prefix: the reasons are `${id}-roles-error` and `${id}-remotes-error`. */
  id: string;
  draft: RoleDraft;
  errors?: FieldErrors;
  /** The new draft, and the field it changed ("roles" or "remotes"). */
  onChange(d: RoleDraft, changed: 'roles' | 'remotes'): void;
}) {
  const toggle = (role: PlainRole) => {
    const plain = new Set(draft.plain);
    if (plain.has(role)) plain.delete(role);
    else plain.add(role);
    onChange({ ...draft, plain }, 'roles');
  };
  const rolesError = errors.roles ? `${id}-roles-error` : '';
  return (
    <fieldset>
      <legend>{labelOf(INVITE_FORM, 'roles')}</legend>
      {errors.roles && (
        <p id={`${id}-roles-error`} className="field__error">
          {errors.roles}
        </p>
      )}
      {PLAIN.map((p) => (
        <div className="check" key={p.role}>
          <input
            type="checkbox"
            id={`${id}-${p.role}`}
            checked={draft.plain.has(p.role)}
            onChange={() => toggle(p.role)}
            aria-invalid={errors.roles ? true : undefined}
            aria-describedby={`${rolesError} ${id}-${p.role}-hint`.trim()}
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
          onChange={() => onChange({ ...draft, releaseManager: !draft.releaseManager }, 'roles')}
          aria-invalid={errors.roles ? true : undefined}
          aria-describedby={rolesError || undefined}
        />
        <label htmlFor={`${id}-rm`}>release manager</label>
      </div>
      {draft.releaseManager && (
        <Field
          id={`${id}-remotes`}
          label={labelOf(INVITE_FORM, 'remotes')}
          error={errors.remotes}
          hint="Comma-separated."
        >
          <input
            id={`${id}-remotes`}
            value={draft.remotes}
            onChange={(e) => onChange({ ...draft, remotes: e.target.value }, 'remotes')}
            placeholder="blog"
            aria-invalid={errors.remotes ? true : undefined}
            aria-describedby={[errors.remotes ? `${id}-remotes-error` : '', `${id}-remotes-hint`].join(' ').trim()}
          />
        </Field>
      )}
    </fieldset>
  );
}
