/** People (admin): invite with roles, change roles, disable or enable, issue a recovery invitation. */
import { useState } from 'react';
import { INVITE_FORM } from '@aitools/contracts/formFields';
import { api, errorText } from '../api';
import { Field } from '../components/Field';
import { draftOf, RoleFields, rolesOf, type RoleDraft } from '../components/RoleFields';
import { labelOf, refusalText, useFieldErrors } from '../fieldErrors';
import { Done, ErrorNote, Loading } from '../components/Status';
import { ACTIONS, Table } from '../components/Table';
import { utc } from '../format';
import { roleLabel } from '../roles';
import { usePerson, useSession } from '../session';
import { useResource } from '../useResource';
import type { Person } from '../types';

interface Link {
  link: string;
  expiresAt: string;
}

function LinkNote({ who, link }: { who: string; link: Link }) {
  return (
    <div className="note note--done" role="status">
      <p>
        Invitation for <strong>{who}</strong>. Send it by a channel you trust; it works once, until{' '}
        {utc(link.expiresAt)}.
      </p>
      <label htmlFor="invitation-link">Invitation link</label>
      <input id="invitation-link" readOnly value={link.link} className="mono" onFocus={(e) => e.target.select()} />
    </div>
  );
}

function PersonRow({ p, self, onChanged }: { p: Person; self: boolean; onChanged(msg: string, link?: Link): void }) {
  const [editing, setEditing] = useState<RoleDraft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const prefix = `person-${p.id}`;
  const { errors, formRef, refuseFailure, clear, reset } = useFieldErrors(INVITE_FORM, prefix);
  const call = async (path: string, body: unknown, msg: string) => {
    setError(null);
    reset();
    try {
      const answer = await api.post<Link | undefined>(path, body);
      setEditing(null);
      onChanged(msg, answer && 'link' in answer ? answer : undefined);
    } catch (err) {
      if (!refuseFailure(err)) setError(errorText(err));
    }
  };
  return (
    <tr>
      <th scope="row">
        {p.name}
        {p.email && <div className="muted">{p.email}</div>}
      </th>
      <td>
        {editing ? (
          <form
            ref={formRef}
            onSubmit={(e) => {
              e.preventDefault();
              void call(`/api/people/${p.id}/roles`, { roles: rolesOf(editing) }, `Roles of ${p.name} changed.`);
            }}
          >
            <RoleFields
              id={prefix}
              draft={editing}
              errors={errors}
              onChange={(draft, changed) => {
                setEditing(draft);
                clear(changed);
              }}
            />
            <button type="submit" className="btn btn--primary">
              Save roles
            </button>
            <button
              type="button"
              className="btn"
              onClick={() => {
                setEditing(null);
                reset();
              }}
            >
              Cancel
            </button>
            <ErrorNote>{refusalText('Roles not changed', INVITE_FORM, errors)}</ErrorNote>
          </form>
        ) : (
          p.roles.map(roleLabel).join(', ') || 'none'
        )}
        <ErrorNote>{error}</ErrorNote>
      </td>
      <td>{p.disabled ? 'disabled' : 'active'}</td>
      <td className="button-row">
        {!editing && (
          <button type="button" className="btn" onClick={() => setEditing(draftOf(p.roles))}>
            Change roles <span className="visually-hidden">of {p.name}</span>
          </button>
        )}
        {!self &&
          (p.disabled ? (
            <button
              type="button"
              className="btn"
              onClick={() => void call(`/api/people/${p.id}/enable`, {}, `${p.name} enabled.`)}
            >
              Enable <span className="visually-hidden">{p.name}</span>
            </button>
          ) : (
            <button
              type="button"
              className="btn btn--danger"
              onClick={() => void call(`/api/people/${p.id}/disable`, {}, `${p.name} disabled and signed out.`)}
            >
              Disable <span className="visually-hidden">{p.name}</span>
            </button>
          ))}
        <button
          type="button"
          className="btn"
          onClick={() => void call(`/api/people/${p.id}/invitation`, {}, `Recovery invitation for ${p.name}.`)}
        >
          Recovery invitation <span className="visually-hidden">for {p.name}</span>
        </button>
      </td>
    </tr>
  );
}

export function PeopleScreen() {
  const me = usePerson();
  const { refresh } = useSession();
  const people = useResource<{ people: Person[] }>('/api/people');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [draft, setDraft] = useState<RoleDraft>(draftOf([{ role: 'viewer' }]));
  const [link, setLink] = useState<{ who: string; link: Link } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { errors, formRef, refuseFailure, clear, marks, reset } = useFieldErrors(INVITE_FORM, 'invite');

  const invite = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    reset();
    try {
      const answer = await api.post<Link>('/api/invitations', {
        name: name.trim(),
        ...(email.trim() ? { email: email.trim() } : {}),
        roles: rolesOf(draft),
      });
      setLink({ who: name.trim(), link: answer });
      setDone(null);
      setName('');
      setEmail('');
      setDraft(draftOf([{ role: 'viewer' }]));
      await people.reload();
    } catch (err) {
      if (!refuseFailure(err)) setError(errorText(err));
    }
  };
  const changed = (who: Person) => async (msg: string, l?: Link) => {
    setDone(msg);
    setLink(l ? { who: who.name, link: l } : null);
    await people.reload();
    // A change of one's own roles renews the session: the sections on offer follow at once.
    if (who.id === me.id) await refresh();
  };

  return (
    <>
      <h1>People</h1>
      <form ref={formRef} onSubmit={(e) => void invite(e)} className="card" noValidate aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite someone</h2>
        <Field id="invite-name" label={labelOf(INVITE_FORM, 'name')} error={errors.name}>
          <input
            id="invite-name"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              clear('name');
            }}
            required
            {...marks('name')}
          />
        </Field>
        <Field id="invite-email" label={labelOf(INVITE_FORM, 'email')} error={errors.email}>
          <input
            id="invite-email"
            type="email"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              clear('email');
            }}
            {...marks('email')}
          />
        </Field>
        <RoleFields
          id="invite"
          draft={draft}
          errors={errors}
          onChange={(next, changed) => {
            setDraft(next);
            clear(changed);
          }}
        />
        <button type="submit" className="btn btn--primary" disabled={!name.trim()}>
          Create the invitation
        </button>
        <ErrorNote>{refusalText('Not invited', INVITE_FORM, errors) ?? errors.form ?? error}</ErrorNote>
      </form>
      <Done>{done}</Done>
      {link && <LinkNote who={link.who} link={link.link} />}
      <ErrorNote>{people.error}</ErrorNote>
      {!people.data ? (
        !people.error && <Loading what="people" />
      ) : (
        <Table caption="People" columns={['Person', 'Roles', 'State', ACTIONS]}>
          {people.data.people.map((p) => (
            <PersonRow key={p.id} p={p} self={p.id === me.id} onChanged={changed(p)} />
          ))}
        </Table>
      )}
    </>
  );
}
