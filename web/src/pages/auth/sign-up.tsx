import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { $api } from '../../api/client';
import { Field, FormError, formValues, Submit } from '../../ui/form';
import { PageHeader } from '../../ui/page';

export function SignUp() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signup = $api.useMutation('post', '/api/signup', {
    onSuccess: () => {
      // Nothing cached before signing in holds: not the "signed out" session, not another user's data.
      queryClient.clear();
      void navigate('/workspaces', { replace: true });
    },
  });
  return (
    <main id="content" className="auth-page">
      <PageHeader title="Create your organisation" />
      <form
        className="card form"
        noValidate
        onSubmit={(event) => {
          const { name = '', email = '', password = '', org_name: orgName = '' } = formValues(event);
          signup.mutate({ body: { name, email, password, ...(orgName ? { org_name: orgName } : {}) } });
        }}
      >
        <FormError error={signup.error} />
        <Field label="Your name" name="name" error={signup.error}>
          <input autoComplete="name" required />
        </Field>
        <Field label="Email" name="email" error={signup.error}>
          <input type="email" autoComplete="email" required />
        </Field>
        <Field label="Password" name="password" error={signup.error} hint="At least 8 characters.">
          <input type="password" autoComplete="new-password" required minLength={8} />
        </Field>
        <Field label="Organisation name" name="org_name" error={signup.error} hint="Optional: defaults to your name's organisation.">
          <input autoComplete="organization" />
        </Field>
        <Submit pending={signup.isPending} busy="Creating">
          Create organisation
        </Submit>
      </form>
      <p>
        Already have an account? <Link to="/signin">Sign in</Link>.
      </p>
    </main>
  );
}
