import { useState } from 'react';
import { $api, type Schemas, useRefresh } from '../../api/client';
import { useIsAdmin, useUser } from '../../app/session';
import { ConfirmButton } from '../../ui/confirm';
import { ActionForm, Field, formValues } from '../../ui/form';
import { dateTime } from '../../ui/format';
import { PageHeader } from '../../ui/page';
import { Notice } from '../../ui/panel';
import { Loadable, RowError } from '../../ui/states';
import { DataTable } from '../../ui/table';
import { InviteByLink, PendingInvitations } from './users/invitations';
import { SetPassword } from './users/set-password';

type User = Schemas['User'];
type Role = Schemas['OrgRole'];

function AddUser({ onDone }: { onDone: (message?: string) => void }) {
  const refresh = useRefresh('/api/org/users');
  const create = $api.useMutation('post', '/api/org/users', {
    onSuccess: async ({ user }) => {
      await refresh();
      onDone(`Added ${user.name} (${user.email}) as ${user.org_role}. They sign in with the password you set.`);
    },
  });
  return (
    <ActionForm
      className="card form"
      label="Add a user"
      heading={2}
      error={create.error}
      onSubmit={({ name = '', email = '', password = '', org_role: role = 'member' }) =>
        create.mutate({ body: { name, email, password, org_role: role as Role } })
      }
      submit="Add user"
      pending={create.isPending}
      busy="Adding"
      onCancel={() => onDone()}
    >
      <Field label="Name" name="name" error={create.error}>
        <input required autoComplete="off" />
      </Field>
      <Field label="Email" name="email" error={create.error}>
        <input type="email" required autoComplete="off" />
      </Field>
      <Field label="Password" name="password" error={create.error} hint="At least 8 characters; tell it to them yourself.">
        <input type="password" required minLength={8} autoComplete="new-password" />
      </Field>
      <Field label="Role" name="org_role" error={create.error} hint="Admins manage the organisation, its workspaces and its settings.">
        <select defaultValue="member">
          <option value="member">member</option>
          <option value="admin">admin</option>
        </select>
      </Field>
    </ActionForm>
  );
}

/** An admin's controls for another user: change the role, set the password, remove. */
function UserActions({ user }: { user: User }) {
  const refresh = useRefresh('/api/org/users');
  const change = $api.useMutation('put', '/api/org/users/{id}', { onSuccess: refresh });
  const remove = $api.useMutation('delete', '/api/org/users/{id}', { onSuccess: refresh });
  const path = { params: { path: { id: user.id } } };
  return (
    <>
      <div className="actions row-actions">
        <form
          className="inline-form"
          noValidate
          onSubmit={(event) => {
            const { org_role: role = user.org_role } = formValues(event);
            change.mutate({ ...path, body: { org_role: role as Role } });
          }}
        >
          <Field label={`Role of ${user.name}`} name="org_role" error={change.error}>
            <select defaultValue={user.org_role} key={user.org_role}>
              <option value="member">member</option>
              <option value="admin">admin</option>
            </select>
          </Field>
          <button type="submit" className="button small secondary" disabled={change.isPending} aria-busy={change.isPending || undefined}>
            {change.isPending ? 'Changing…' : 'Change role'}
            <span className="visually-hidden"> of {user.name}</span>
          </button>
        </form>
        <SetPassword user={user} />
        <ConfirmButton
          title={`Remove ${user.name}?`}
          confirmLabel="Remove user"
          disabled={remove.isPending}
          description={
            <p>
              {user.name} ({user.email}) can no longer sign in: their sessions stop working on their next request. Their conversations stay.
              Their email address can be added again later.
            </p>
          }
          onConfirm={() => remove.mutate(path)}
        >
          Remove<span className="visually-hidden"> {user.name}</span>
        </ConfirmButton>
      </div>
      <RowError error={change.error ?? remove.error} />
    </>
  );
}

/** A user's name, marked when it is the reader's own or the identity provider deactivated them. */
function UserName({ user, isMe }: { user: User; isMe: boolean }) {
  return (
    <>
      {user.name}
      {isMe && ' (you)'}
      {!user.active && (
        <>
          {' '}
          <span className="badge badge-muted" title="Deactivated by the identity provider: they cannot sign in">
            Deactivated
          </span>
        </>
      )}
    </>
  );
}

function UsersTable({ users }: { users: User[] }) {
  const me = useUser();
  const isAdmin = useIsAdmin();
  return (
    <DataTable
      caption="Users of the organisation"
      columns={[
        { header: 'Name', cell: (user) => <UserName user={user} isMe={user.id === me.id} /> },
        { header: 'Email', cell: (user) => user.email },
        { header: 'Role', cell: (user) => user.org_role },
        { header: 'Added', cell: (user) => dateTime(user.created_at) },
        isAdmin && {
          header: 'Actions',
          cell: (user) =>
            user.id === me.id ? <span className="hint">Another admin changes your role.</span> : <UserActions user={user} />,
        },
      ]}
      rows={users}
      rowKey={(user) => user.id}
    />
  );
}

/**
 * The organisation's users and their roles; an admin adds (with a password, or by an invitation
 * link), changes the role and password of, and removes them (never themself).
 * Users the identity provider deactivated (SCIM, Organisation → Provisioning) are marked: they cannot sign in.
 */
export default function Users() {
  const isAdmin = useIsAdmin();
  const [adding, setAdding] = useState<'user' | 'link' | null>(null);
  const [notice, setNotice] = useState('');
  const users = $api.useQuery('get', '/api/org/users');
  return (
    <>
      <PageHeader
        title="Users"
        actions={
          isAdmin &&
          !adding && (
            <>
              <button
                type="button"
                className="button"
                onClick={() => {
                  setNotice('');
                  setAdding('user');
                }}
              >
                Add user
              </button>
              <button
                type="button"
                className="button secondary"
                onClick={() => {
                  setNotice('');
                  setAdding('link');
                }}
              >
                Invite by link
              </button>
            </>
          )
        }
      >
        <p>Everyone who signs in to your organisation, and their role.</p>
      </PageHeader>
      <Notice message={notice} />
      {adding === 'user' && (
        <AddUser
          onDone={(message) => {
            setAdding(null);
            if (message) setNotice(message);
          }}
        />
      )}
      {adding === 'link' && <InviteByLink onDone={() => setAdding(null)} />}
      <Loadable query={users} label="users" isEmpty={(data) => data.users.length === 0}>
        {(data) => <UsersTable users={data.users} />}
      </Loadable>
      {isAdmin && <PendingInvitations />}
    </>
  );
}
