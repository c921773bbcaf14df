import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { $api } from '../api/client';
import { Field, FormError, formValues, Submit } from '../ui/form';
import { dateTime } from '../ui/format';
import { PageHeader, Section } from '../ui/page';
import { Loadable } from '../ui/states';

/*
 * Your own account (`/me`, from the header): your display name and your password. A user single
 * sign-on made has no password here, and is told so instead of being shown the form.
 */

const ME = ['get', '/api/me'] as const;
const SESSION = ['get', '/api/auth/session'] as const;

function NameForm({ name }: { name: string }) {
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState('');
  const rename = $api.useMutation('put', '/api/me', {
    onSuccess: async ({ user }) => {
      setSaved(`Saved: you are shown as ${user.name}.`);
      await Promise.all([queryClient.invalidateQueries({ queryKey: ME }), queryClient.invalidateQueries({ queryKey: SESSION })]);
    },
  });
  return (
    <form
      className="form"
      aria-label="Your name"
      noValidate
      onSubmit={(event) => {
        setSaved('');
        rename.mutate({ body: { name: formValues(event).name ?? '' } });
      }}
    >
      <FormError error={rename.error} />
      <Field label="Display name" name="name" error={rename.error} hint="How others see you in conversations, approvals and the user list.">
        <input defaultValue={name} autoComplete="name" required />
      </Field>
      <div className="actions">
        <Submit pending={rename.isPending}>Save name</Submit>
      </div>
      <div role="status">{saved && <p className="result">{saved}</p>}</div>
    </form>
  );
}

function PasswordForm() {
  const [done, setDone] = useState(false);
  const change = $api.useMutation('post', '/api/me/password', { onSuccess: () => setDone(true) });
  return (
    <form
      className="form"
      aria-label="Change your password"
      noValidate
      onSubmit={(event) => {
        const form = event.currentTarget;
        const { current_password = '', new_password = '' } = formValues(event);
        setDone(false);
        change.mutate({ body: { current_password, new_password } }, { onSuccess: () => form.reset() });
      }}
    >
      <FormError error={change.error} />
      <Field label="Current password" name="current_password" error={change.error}>
        <input type="password" autoComplete="current-password" required />
      </Field>
      <Field label="New password" name="new_password" error={change.error} hint="At least 8 characters.">
        <input type="password" autoComplete="new-password" required minLength={8} />
      </Field>
      <div className="actions">
        <Submit pending={change.isPending} busy="Changing">
          Change password
        </Submit>
      </div>
      <div role="status">
        {done && <p className="result">Password changed. You stay signed in here; every other session of yours has been signed out.</p>}
      </div>
    </form>
  );
}

export default function Profile() {
  const me = $api.useQuery('get', '/api/me');
  return (
    <>
      <PageHeader title="Profile">
        <p>Your name and your password.</p>
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
    </>
  );
}
