import { $api, useRefresh } from '../api/client';
import { ActionForm, Field } from '../ui/form';
import { dateTime } from '../ui/format';
import { PageHeader, Section } from '../ui/page';
import { Notice } from '../ui/panel';
import { Loadable } from '../ui/states';
import { MyClients } from './me/clients';

/*
 * Your own account (`/me`, from the header): your display name and your password. A user single
 * sign-on made has no password here, and is told so instead of being shown the form. Then the MCP
 * clients you connected, to revoke.
 */

function NameForm({ name }: { name: string }) {
  const refresh = useRefresh('/api/me', '/api/auth/session');
  const rename = $api.useMutation('put', '/api/me', { onSuccess: refresh });
  return (
    <ActionForm
      label="Your name"
      error={rename.error}
      onSubmit={({ name: newName = '' }) => rename.mutate({ body: { name: newName } })}
      submit="Save name"
      pending={rename.isPending}
      footer={<Notice message={rename.data ? `Saved: you are shown as ${rename.data.user.name}.` : ''} />}
    >
      <Field label="Display name" name="name" error={rename.error} hint="How others see you in conversations, approvals and the user list.">
        <input defaultValue={name} autoComplete="name" required />
      </Field>
    </ActionForm>
  );
}

function PasswordForm() {
  const change = $api.useMutation('post', '/api/me/password');
  return (
    <ActionForm
      label="Change your password"
      error={change.error}
      onSubmit={({ current_password = '', new_password = '' }, form) => {
        change.mutate({ body: { current_password, new_password } }, { onSuccess: () => form.reset() });
      }}
      submit="Change password"
      pending={change.isPending}
      busy="Changing"
      footer={
        <Notice
          message={change.isSuccess ? 'Password changed. You stay signed in here; every other session of yours has been signed out.' : ''}
        />
      }
    >
      <Field label="Current password" name="current_password" error={change.error}>
        <input type="password" autoComplete="current-password" required />
      </Field>
      <Field label="New password" name="new_password" error={change.error} hint="At least 8 characters.">
        <input type="password" autoComplete="new-password" required minLength={8} />
      </Field>
    </ActionForm>
  );
}

export default function Profile() {
  const me = $api.useQuery('get', '/api/me');
  return (
    <>
      <PageHeader title="Profile">
        <p>Your name, your password and the MCP clients you connected.</p>
      </PageHeader>
      <Loadable query={me} label="your profile">
        {({ user, has_password }) => (
          <>
            <dl className="wc-facts">
              <dt>Email</dt>
              <dd>{user.email}</dd>
              <dt>Role</dt>
              <dd>{user.org_role}</dd>
              <dt>Member since</dt>
              <dd>{dateTime(user.created_at)}</dd>
            </dl>
            <Section title="Name">
              <NameForm name={user.name} />
            </Section>
            <Section title="Password">
              {has_password ? (
                <PasswordForm />
              ) : (
                <p>You sign in with single sign-on: your password is kept by your identity provider, so change it there.</p>
              )}
            </Section>
          </>
        )}
      </Loadable>
      <MyClients />
    </>
  );
}
