import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type RefObject, useRef, useState } from 'react';
import { $api, api, errorText, type Schemas } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { ConfirmButton } from '../../ui/confirm';
import { Field, FormError, formValues, Submit } from '../../ui/form';
import { PageHeader, Section } from '../../ui/page';
import { Empty, Loadable } from '../../ui/states';

type Sso = Schemas['Sso'];
type SsoInput = Schemas['SsoConfigInput'];

const SSO = ['get', '/api/org/sso'] as const;

/** Where the provider sends people back: the API's once configured (it knows PUBLIC_BASE_URL), this origin's before. */
const CALLBACK_PATH = '/api/auth/sso/callback';

/** The organisation's setting, or null when single sign-on is not configured (404). */
function useSso() {
  return useQuery({
    queryKey: SSO,
    queryFn: async ({ signal }) => {
      const { data, error, response } = await api.GET('/api/org/sso', { signal });
      if (response.status === 404) return null;
      if (error) throw error;
      return data.sso;
    },
  });
}

/** The redirect URI, as text to select and a button that copies it. */
function RedirectUri({ sso }: { sso: Sso | null }) {
  const [copied, setCopied] = useState(false);
  const uri = sso?.redirect_uri ?? `${window.location.origin}${CALLBACK_PATH}`;
  return (
    <Section title="Redirect URI">
      <p>
        Register this address with your provider as the sign-in redirect URI (Okta: <em>Sign-in redirect URIs</em>; Entra ID:{' '}
        <em>Redirect URI</em>, platform Web).
        {!sso && ' This is the address this page was opened at; saving the setting confirms the one the service uses.'}
      </p>
      <div className="secret-row">
        <code className="wc-break">{uri}</code>
        <button
          type="button"
          className="button secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(uri).then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
          <span className="visually-hidden"> the redirect URI</span>
        </button>
      </div>
    </Section>
  );
}

/** The setting as stored (the client secret masked), and the way to turn it off. */
function CurrentSetting({ sso }: { sso: Sso }) {
  const users = $api.useQuery('get', '/api/org/users');
  const configuredBy = users.data?.users.find((user) => user.id === sso.configured_by);
  return (
    <Section title="Current setting" actions={<TurnOff />}>
      <dl className="wc-facts">
        <dt>Issuer</dt>
        <dd className="wc-break">
          <code>{sso.issuer}</code>
        </dd>
        <dt>Client id</dt>
        <dd className="wc-break">
          <code>{sso.client_id}</code>
        </dd>
        <dt>Client secret</dt>
        <dd>
          <code>{sso.client_secret}</code>
        </dd>
        <dt>Domains</dt>
        <dd className="wc-break">{sso.domains.join(', ')}</dd>
        <dt>First sign-in makes</dt>
        <dd>{sso.default_role === 'admin' ? 'an admin' : 'a member'}</dd>
        <dt>Required</dt>
        <dd>
          {sso.required
            ? `Yes: password sign-in is refused for everyone but ${configuredBy ? configuredBy.name : 'the admin who turned it on'}.`
            : 'No: passwords still work.'}
        </dd>
        <dt>Admin group</dt>
        <dd className="wc-break">{sso.admin_group ?? 'none'}</dd>
        <dt>Groups claim</dt>
        <dd className="wc-break">{sso.groups_claim ?? 'groups (the default)'}</dd>
        <dt>Configured by</dt>
        <dd>{configuredBy ? `${configuredBy.name} (${configuredBy.email})` : sso.configured_by}</dd>
      </dl>
    </Section>
  );
}

function TurnOff() {
  const queryClient = useQueryClient();
  const remove = $api.useMutation('delete', '/api/org/sso', {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SSO }),
  });
  return (
    <div className="actions">
      <ConfirmButton
        title="Turn single sign-on off?"
        confirmLabel="Turn off single sign-on"
        disabled={remove.isPending}
        description={
          <p>
            Password sign-in works again for everyone. People created by single sign-on have no password: they cannot sign in until it is
            configured again. The setting (and its client secret) is deleted.
          </p>
        }
        onConfirm={() => remove.mutate({})}
      >
        Turn off<span className="visually-hidden"> single sign-on</span>
      </ConfirmButton>
      {remove.error && (
        <p className="row-error" role="alert">
          {errorText(remove.error)}
        </p>
      )}
    </div>
  );
}

/** Domains one a line or separated by commas. */
const domainsOf = (text: string) =>
  text
    .split(/[\n,]/)
    .map((domain) => domain.trim())
    .filter(Boolean);

/** The request from the form: the optional fields only when filled in, the checkbox as a boolean. */
function inputOf(values: Record<string, string>): SsoInput {
  const input: SsoInput = {
    issuer: values.issuer?.trim() ?? '',
    client_id: values.client_id?.trim() ?? '',
    client_secret: values.client_secret ?? '',
    domains: domainsOf(values.domains ?? ''),
    default_role: values.default_role === 'admin' ? 'admin' : 'member',
    required: values.required === 'on',
  };
  if (values.admin_group?.trim()) input.admin_group = values.admin_group.trim();
  if (values.groups_claim?.trim()) input.groups_claim = values.groups_claim.trim();
  return input;
}

/** The API's messages for `domains.<i>` name the domain they are about. */
function namingDomains(error: unknown, domains: string[] = []): unknown {
  if (!error || typeof error !== 'object' || !('details' in error) || !Array.isArray(error.details)) return error;
  const details = (error.details as { path: string; message: string }[]).map((detail) => {
    const index = /^domains\.(\d+)$/.exec(detail.path)?.[1];
    const domain = index === undefined ? undefined : domains[Number(index)];
    return domain === undefined ? detail : { ...detail, message: `${domain}: ${detail.message}` };
  });
  return { ...error, details };
}

function TestResult({ result }: { result: Schemas['SsoTestResult'] }) {
  if (result.ok)
    return (
      <div className="result">
        <p className="wc-break">
          The provider answered: issuer <code>{result.issuer}</code>, sign-in at <code>{result.authorization_endpoint}</code>.
        </p>
      </div>
    );
  return (
    <div className="result result-bad">
      <p className="wc-break">The provider could not be used: {result.error ?? 'no reason given'}.</p>
    </div>
  );
}

/** Where the provider is and who the service is to it: issuer, client id and secret, domains. */
function ProviderFields({ sso, error, secretRef }: { sso: Sso | null; error: unknown; secretRef: RefObject<HTMLInputElement | null> }) {
  return (
    <>
      <Field label="Issuer" name="issuer" error={error} hint="The provider's issuer URL; its discovery document is read from it.">
        <input type="url" defaultValue={sso?.issuer} autoComplete="off" spellCheck={false} required />
      </Field>
      <Field label="Client id" name="client_id" error={error}>
        <input defaultValue={sso?.client_id} autoComplete="off" spellCheck={false} required />
      </Field>
      <Field
        label="Client secret"
        name="client_secret"
        error={error}
        hint={
          sso
            ? 'Stored encrypted and shown masked: enter the secret again to save.'
            : 'Stored encrypted and shown masked; it is asked again on every save.'
        }
      >
        <input ref={secretRef} type="password" autoComplete="new-password" required />
      </Field>
      <Field
        label="Domains"
        name="domains"
        error={error}
        hint="The e-mail domains that sign in through this provider, one a line or separated by commas (example.com)."
      >
        <textarea defaultValue={sso?.domains.join('\n')} rows={3} spellCheck={false} required />
      </Field>
    </>
  );
}

/** What a first sign-in makes of a person, and whether passwords still work. */
function RoleFields({ sso, error }: { sso: Sso | null; error: unknown }) {
  return (
    <>
      <Field label="Default role" name="default_role" error={error} hint="What a person signing in for the first time becomes.">
        <select defaultValue={sso?.default_role ?? 'member'}>
          <option value="member">Member</option>
          <option value="admin">Admin</option>
        </select>
      </Field>
      <Field
        label="Required"
        name="required"
        error={error}
        hint={
          <>
            <strong>Warning:</strong> password sign-in stops for everyone in the organisation but the admin who turns this on. Sign in once
            through the provider (in a private window) before you require it.
          </>
        }
      >
        <input type="checkbox" defaultChecked={sso?.required ?? false} />
      </Field>
      <Field
        label="Admin group"
        name="admin_group"
        error={error}
        hint="Optional: people in this group are made admins on their first sign-in (Entra ID sends the group's object id)."
      >
        <input defaultValue={sso?.admin_group ?? ''} autoComplete="off" />
      </Field>
      <Field
        label="Groups claim"
        name="groups_claim"
        error={error}
        hint="Optional: the ID token's claim that lists the groups (groups by default)."
      >
        <input defaultValue={sso?.groups_claim ?? ''} autoComplete="off" spellCheck={false} />
      </Field>
    </>
  );
}

/** Issuer, client, domains and what a first sign-in makes; tested with the provider, then saved whole (`PUT`). */
function SsoForm({ sso }: { sso: Sso | null }) {
  const queryClient = useQueryClient();
  const form = useRef<HTMLFormElement>(null);
  const secret = useRef<HTMLInputElement>(null);
  const [saved, setSaved] = useState('');
  const save = $api.useMutation('put', '/api/org/sso', {
    onSuccess: (data) => {
      setSaved('Saved single sign-on.');
      if (secret.current) secret.current.value = '';
      // The form stays on screen: forget the secret it sent now.
      save.reset();
      queryClient.setQueryData(SSO, data.sso);
    },
  });
  const test = $api.useMutation('post', '/api/org/sso/test');
  const error = namingDomains(save.error ?? test.error, save.variables?.body.domains);
  return (
    <Section title={sso ? 'Change the setting' : 'Set up single sign-on'}>
      <p className="hint">
        Okta: the issuer is <code>https://&lt;your-org&gt;.okta.com</code>, with the app's Client ID and Client secret. Entra ID:{' '}
        <code>https://login.microsoftonline.com/&lt;tenant id&gt;/v2.0</code>, the Application (client) ID and a client secret's Value.
      </p>
      <form
        ref={form}
        key={JSON.stringify(sso)}
        className="form wc-form"
        aria-label="Single sign-on setting"
        noValidate
        onSubmit={(event) => {
          const body = inputOf(formValues(event));
          setSaved('');
          test.reset();
          save.mutate({ body });
        }}
      >
        <FormError error={error} />
        <ProviderFields sso={sso} error={error} secretRef={secret} />
        <RoleFields sso={sso} error={error} />
        <div className="actions">
          <Submit pending={save.isPending}>Save single sign-on</Submit>
          <button
            type="button"
            className="button secondary"
            disabled={test.isPending}
            aria-busy={test.isPending || undefined}
            onClick={() => {
              if (!form.current) return;
              const { issuer, client_id } = inputOf(Object.fromEntries(new FormData(form.current)) as Record<string, string>);
              setSaved('');
              save.reset();
              test.mutate({ body: { issuer, client_id } });
            }}
          >
            {test.isPending ? 'Testing…' : 'Test the provider'}
          </button>
          <span role="status">{saved}</span>
        </div>
        <div role="status">{test.data && !test.isPending && <TestResult result={test.data} />}</div>
      </form>
    </Section>
  );
}

/** Organisation → Single sign-on (admins only, as the API): the redirect URI, the setting, its form. */
export default function SsoPage() {
  const isAdmin = useIsAdmin();
  return (
    <>
      <PageHeader title="Single sign-on">
        <p>Sign your people in through your OpenID Connect provider (Okta, Entra ID, Google Workspace…) by their e-mail domain.</p>
      </PageHeader>
      {isAdmin ? <AdminSso /> : <Empty>Only admins of the organisation manage single sign-on.</Empty>}
    </>
  );
}

function AdminSso() {
  const sso = useSso();
  return (
    <Loadable query={sso} label="the single sign-on setting">
      {(data) => (
        <>
          <RedirectUri sso={data} />
          {data ? (
            <CurrentSetting sso={data} />
          ) : (
            <Section title="Current setting">
              <Empty>Single sign-on is off: everyone signs in with a password.</Empty>
            </Section>
          )}
          <SsoForm sso={data} />
        </>
      )}
    </Loadable>
  );
}
