import { useIsAdmin } from '../../app/session';
import { PageHeader, Section } from '../../ui/page';
import { Empty, Loadable } from '../../ui/states';
import { SsoForm } from './sso/form';
import { CurrentSetting, RedirectUri, useSso } from './sso/setting';

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
