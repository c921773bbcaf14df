import { useQuery } from '@tanstack/react-query';
import { $api, api, type Schemas, useRefresh } from '../../../api/client';
import { ConfirmButton } from '../../../ui/confirm';
import { CopyButton } from '../../../ui/copy';
import { Section } from '../../../ui/page';
import { RowError } from '../../../ui/states';

/*
 * Single sign-on as it is: the address the provider sends people back to, and the stored setting
 * with the way to turn it off.
 */

export type Sso = Schemas['Sso'];

/** The setting's read: the page shows it, the form writes what it saved into it. */
export const SSO = ['get', '/api/org/sso'] as const;

/** Where the provider sends people back: the API's once configured (it knows PUBLIC_BASE_URL), this origin's before. */
const CALLBACK_PATH = '/api/auth/sso/callback';

/** The organisation's setting, or null while single sign-on is off (the API answers `{ sso: null }`, not an error). */
export function useSso() {
  return useQuery({
    queryKey: SSO,
    queryFn: async ({ signal }) => {
      const { data, error } = await api.GET('/api/org/sso', { signal });
      if (error) throw error;
      return data.sso;
    },
  });
}

/** The redirect URI, as text to select and a button that copies it. */
export function RedirectUri({ sso }: { sso: Sso | null }) {
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
        <CopyButton value={uri} what="the redirect URI" />
      </div>
    </Section>
  );
}

/** The setting as stored (the client secret masked), and the way to turn it off. */
export function CurrentSetting({ sso }: { sso: Sso }) {
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
  const refresh = useRefresh('/api/org/sso');
  const remove = $api.useMutation('delete', '/api/org/sso', { onSuccess: refresh });
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
      <RowError error={remove.error} />
    </div>
  );
}
