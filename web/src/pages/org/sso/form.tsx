import { useQueryClient } from '@tanstack/react-query';
import { type RefObject, useRef, useState } from 'react';
import { $api, type Schemas } from '../../../api/client';
import { ActionForm, Field, valuesOf } from '../../../ui/form';
import { Section } from '../../../ui/page';
import { SSO, type Sso } from './setting';

/*
 * The single sign-on form: issuer, client, domains and what a first sign-in makes, tested with the
 * provider before it is saved.
 */

type SsoInput = Schemas['SsoConfigInput'];

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
export function SsoForm({ sso }: { sso: Sso | null }) {
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
      <ActionForm
        formRef={form}
        key={JSON.stringify(sso)}
        className="form wc-form"
        label="Single sign-on setting"
        error={error}
        onSubmit={(values) => {
          setSaved('');
          test.reset();
          save.mutate({ body: inputOf(values) });
        }}
        submit="Save single sign-on"
        pending={save.isPending}
        actionsAfter={
          <>
            <button
              type="button"
              className="button secondary"
              disabled={test.isPending}
              aria-busy={test.isPending || undefined}
              onClick={() => {
                if (!form.current) return;
                const { issuer, client_id } = inputOf(valuesOf(form.current));
                setSaved('');
                save.reset();
                test.mutate({ body: { issuer, client_id } });
              }}
            >
              {test.isPending ? 'Testing…' : 'Test the provider'}
            </button>
            <span role="status">{saved}</span>
          </>
        }
        footer={<div role="status">{test.data && !test.isPending && <TestResult result={test.data} />}</div>}
      >
        <ProviderFields sso={sso} error={error} secretRef={secret} />
        <RoleFields sso={sso} error={error} />
      </ActionForm>
    </Section>
  );
}
