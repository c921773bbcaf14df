import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { $api } from '../../api/client';
import { signInTarget } from '../../app/sign-in-target';
import { Field, FormError, formValues, Submit } from '../../ui/form';
import { PageHeader } from '../../ui/page';

export function SignIn() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const login = $api.useMutation('post', '/api/auth/login', {
    onSuccess: () => {
      // Nothing cached before signing in holds: not the "signed out" session, not another user's data.
      queryClient.clear();
      void navigate(signInTarget(params.get('next')), { replace: true });
    },
  });
  return (
    <main id="content" className="auth-page">
      <PageHeader title="Sign in" />
      <form
        className="card form"
        noValidate
        onSubmit={(event) => {
          const { email = '', password = '' } = formValues(event);
          login.mutate({ body: { email, password } });
        }}
      >
        <FormError error={login.error} />
        <Field label="Email" name="email" error={login.error}>
          <input type="email" autoComplete="username" required />
        </Field>
        <Field label="Password" name="password" error={login.error}>
          <input type="password" autoComplete="current-password" required />
        </Field>
        <Submit pending={login.isPending} busy="Signing in">
          Sign in
        </Submit>
      </form>
      <p>
        New here? <Link to="/signup">Create an organisation</Link>.
      </p>
    </main>
  );
}
