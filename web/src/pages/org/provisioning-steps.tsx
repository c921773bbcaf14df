import { Section } from '../../ui/page';

/*
 * How to point Okta or Entra ID at the service, on the page itself: the console does not serve the
 * repository's docs (docs/sso.md, "Provisioning (SCIM)", says the same at more length).
 */

/** What to type where, with this organisation's base URL in place. */
function Value({ children }: { children: string }) {
  return <code className="wc-break">{children}</code>;
}

/** The steps of connecting Okta and Microsoft Entra ID to this organisation's SCIM base URL and token. */
export function ProviderSteps({ baseUrl }: { baseUrl: string }) {
  return (
    <Section title="Connect your provider">
      <h3>Okta</h3>
      <ol>
        <li>
          In the app integration of this service: <em>General → App Settings → Edit</em>, <em>Provisioning: SCIM</em>. Save.
        </li>
        <li>
          <em>Provisioning → Integration</em>: <em>SCIM connector base URL</em> <Value>{baseUrl}</Value>;{' '}
          <em>Unique identifier field for users</em> <Value>userName</Value>; <em>Supported provisioning actions</em>: Push New Users, Push
          Profile Updates, Push Groups; <em>Authentication Mode</em>: HTTP Header, with the token below as <em>Authorization</em>.{' '}
          <em>Test Connector Configuration</em>, then Save.
        </li>
        <li>
          <em>Provisioning → To App</em>: enable Create Users, Update User Attributes and Deactivate Users.
        </li>
        <li>
          <em>Push Groups</em>: the groups whose teams and members this service should keep.
        </li>
      </ol>
      <h3>Microsoft Entra ID</h3>
      <ol>
        <li>
          Entra admin center: <em>Enterprise applications → New application → Create your own application</em> (non-gallery), then{' '}
          <em>Provisioning → Get started</em>, <em>Provisioning Mode</em>: Automatic.
        </li>
        <li>
          <em>Admin Credentials</em>: <em>Tenant URL</em> <Value>{baseUrl}</Value>; <em>Secret Token</em> the token below.{' '}
          <em>Test Connection</em>, then Save.
        </li>
        <li>
          <em>Mappings</em>: keep <em>Provision Microsoft Entra ID Users</em> and <em>Provision Microsoft Entra ID Groups</em> as they are.
        </li>
        <li>
          <em>Users and groups</em>: assign who is provisioned; <em>Provisioning Status</em>: On. Entra syncs every 40 minutes;{' '}
          <em>Provision on demand</em> tries one person at once.
        </li>
      </ol>
      <p className="hint">
        People the provider creates join as members (or with single sign-on's default role) and sign in through single sign-on when it is
        on; roles stay the admins' to change here. Groups become teams; the organisation's default team cannot be removed.
      </p>
    </Section>
  );
}
