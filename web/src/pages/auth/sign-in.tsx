import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { $api, checkSsoAddress, fieldError, ssoSignInPath } from '../../api/client';
import { forgetSsoTarget, keepSsoTarget, signInTarget } from '../../app/sign-in-target';
import { Field, FormError, formValues, Submit } from '../../ui/form';
import { PageHeader } from '../../ui/page';

/** E-mail and password. */
function PasswordSignIn() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const login = $api.useMutation('post', '/api/auth/login', {
    onSuccess: () => {
      // Nothing cached before signing in holds: not the "signed out" session, not another user's data.
      queryClient.clear();
      forgetSsoTarget();
      void navigate(signInTarget(params.get('next')), { replace: true });
    },
  });
  return (
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
  );
}

/**
 * Single sign-on (docs/sso.md): the address's domain names the organisation's provider. The address
 * is checked first (a 404 shows under the field), then the browser goes to `GET /api/auth/sso`
 * itself, which redirects it to the provider; the provider sends it back signed in, to `/`, which
 * opens the page that asked for signing in (`keepSsoTarget`).
 */
function SsoSignIn() {
  const emailInput = useRef<HTMLInputElement>(null);
  const [params] = useSearchParams();
  const check = useMutation({
    mutationFn: async (email: string) => {
      await checkSsoAddress(email);
      return email;
    },
    onSuccess: (email) => {
      // The provider sends the browser back to `/`: the page that asked for signing in is kept for it.
      keepSsoTarget(params.get('next'));
      window.location.assign(ssoSignInPath(email));
    },
    onError: () => emailInput.current?.focus(),
  });
  // The field's own message says what is wrong; the form's message is for everything else.
  const formError = fieldError(check.error, 'email') ? null : check.error;
  return (
    <form
      className="card form"
      aria-label="Sign in with single sign-on"
      noValidate
      onSubmit={(event) => {
        const { email = '' } = formValues(event);
        check.mutate(email.trim());
      }}
    >
      <FormError error={formError} />
      <Field
        label="Email"
        name="email"
        error={check.error}
        hint="Your work address: its domain names your organisation's identity provider, where you sign in."
      >
        <input ref={emailInput} type="email" autoComplete="username" required />
      </Field>
      <Submit pending={check.isPending || check.isSuccess} busy="Going to your provider">
        Continue with single sign-on
      </Submit>
    </form>
  );
}

export function SignIn() {
  const [params] = useSearchParams();
  const sso = params.has('sso');
  const next = params.get('next');
  // A fresh install (nobody has signed up yet) has no one to sign in: it opens on sign-up.
  const signup = $api.useQuery('get', '/api/signup');
  const withNext = (search: Record<string, string>) => {
    const query = new URLSearchParams({ ...search, ...(next ? { next } : {}) }).toString();
    return query ? `/signin?${query}` : '/signin';
  };
  // Switching between the two ways of signing in is a new page for a screen reader: focus its heading.
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the way of signing in is the trigger, not an input.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  }, [sso]);
  if (signup.data?.first) return <Navigate to="/signup" replace />;
  return (
    <main id="content" className="auth-page">
      <PageHeader title={sso ? 'Sign in with single sign-on' : 'Sign in'} />
      {sso ? (
        <>
          <SsoSignIn />
          <p>
            <Link to={withNext({})}>Sign in with a password</Link> instead.
          </p>
        </>
      ) : (
        <>
          <PasswordSignIn />
          <p>
            Does your organisation sign in through its identity provider (Okta, Entra ID…)?{' '}
            <Link to={withNext({ sso: '' })}>Sign in with single sign-on</Link>.
          </p>
        </>
      )}
      <p>
        New here? <Link to="/signup">Create an organisation</Link>.
      </p>
    </main>
  );
}
