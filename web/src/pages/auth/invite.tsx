import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { $api, errorText } from '../../api/client';
import { Field, FormError, formValues, Submit } from '../../ui/form';
import { dateTime } from '../../ui/format';
import { PageHeader } from '../../ui/page';
import { Loading } from '../../ui/states';

/*
 * The page an invitation's link opens (`/invite/:token`, public): which organisation, for which
 * email and role, until when; the person picks their name and password, joins and is signed in.
 */

function AcceptForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const accept = $api.useMutation('post', '/api/invitations/{token}/accept', {
    onSuccess: () => {
      // Nothing cached before signing in holds: not the "signed out" session.
      queryClient.clear();
      void navigate('/chat', { replace: true });
    },
  });
  return (
    <form
      className="card form"
      aria-label="Join the organisation"
      noValidate
      onSubmit={(event) => {
        const { name = '', password = '' } = formValues(event);
        accept.mutate({ params: { path: { token } }, body: { name, password } });
      }}
    >
      <FormError error={accept.error} />
      <Field label="Your name" name="name" error={accept.error}>
        <input autoComplete="name" required />
      </Field>
      <Field label="Choose a password" name="password" error={accept.error} hint="At least 8 characters.">
        <input type="password" autoComplete="new-password" required minLength={8} />
      </Field>
      <Submit pending={accept.isPending} busy="Joining">
        Join
      </Submit>
    </form>
  );
}

export default function Invite() {
  const token = useParams().token ?? '';
  const invitation = $api.useQuery('get', '/api/invitations/{token}', { params: { path: { token } } }, { retry: false });
  return (
    <main id="content" className="auth-page">
      <PageHeader title="Join your organisation" />
      {invitation.isPending && <Loading label="Loading the invitation" />}
      {invitation.isError && (
        <div className="card">
          <p role="alert">{errorText(invitation.error)}</p>
          <p>
            Have an account already? <Link to="/signin">Sign in</Link>.
          </p>
        </div>
      )}
      {invitation.data && (
        <>
          <p>
            You are invited to <strong>{invitation.data.org_name}</strong> as{' '}
            {invitation.data.org_role === 'admin' ? 'an admin' : 'a member'}, with the email address{' '}
            <strong>{invitation.data.email}</strong>. The link works until {dateTime(invitation.data.expires_at)}.
          </p>
          <AcceptForm token={token} />
        </>
      )}
    </main>
  );
}
