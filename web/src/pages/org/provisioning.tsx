import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { $api, type Schemas, useRefresh } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { ConfirmButton } from '../../ui/confirm';
import { CopyButton } from '../../ui/copy';
import { dateTime } from '../../ui/format';
import { PageHeader, Section } from '../../ui/page';
import { Empty, Loadable, RowError } from '../../ui/states';
import { ProviderSteps } from './provisioning-steps';

type Scim = Schemas['ScimStatus'];

const SCIM = ['get', '/api/org/scim'] as const;

/** The address the identity provider sends its SCIM requests to, to select or copy. */
function BaseUrl({ url }: { url: string }) {
  return (
    <Section title="SCIM base URL">
      <p>
        Give your provider this address as the SCIM connector base URL (Okta: <em>SCIM connector base URL</em>, unique identifier{' '}
        <code>userName</code>; Entra ID: <em>Tenant URL</em>).
      </p>
      <div className="secret-row">
        <code className="wc-break">{url}</code>
        <CopyButton value={url} what="the SCIM base URL" />
      </div>
    </Section>
  );
}

/** A new token, shown this once in a read-only field: copy it now, it is gone once dismissed or reloaded. */
function TokenOnce({ token, onDone }: { token: string; onDone: () => void }) {
  const id = useId();
  return (
    <div className="secret-once">
      <p>
        <strong>Your new SCIM token</strong> — copy it now and give it to your provider as the bearer token (Okta: <em>API token</em>; Entra
        ID: <em>Secret token</em>). It will not be shown again.
      </p>
      <div className="field">
        <label htmlFor={id}>SCIM token</label>
        <input id={id} readOnly value={token} spellCheck={false} autoComplete="off" onFocus={(event) => event.currentTarget.select()} />
      </div>
      <div className="actions">
        <CopyButton value={token} what="the SCIM token" />
        <button type="button" className="button secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

/** The token's hint and age, and when the provider last called. */
function TokenFacts({ scim }: { scim: Scim }) {
  return (
    <dl className="wc-facts">
      <dt>Token</dt>
      <dd>
        {scim.token_hint ? (
          <>
            <code className="wc-break">{scim.token_hint}</code>, created {dateTime(scim.token_created_at)}
          </>
        ) : (
          'No token yet'
        )}
      </dd>
      <dt>Last sync</dt>
      <dd>{scim.last_sync_at ? dateTime(scim.last_sync_at) : 'never'}</dd>
    </dl>
  );
}

/** Create the first token, or replace the one there is (after a confirmation: the old one stops working at once). */
function CreateToken({ scim, onCreated }: { scim: Scim; onCreated: (token: string) => void }) {
  const queryClient = useQueryClient();
  const create = $api.useMutation('post', '/api/org/scim/token', {
    onSuccess: (data) => {
      queryClient.setQueryData(SCIM, { scim: data.scim });
      onCreated(data.token);
      // The token stays on screen in the page's state only: forget it here.
      create.reset();
    },
  });
  const button = scim.token_hint ? (
    <ConfirmButton
      title="Replace the SCIM token?"
      confirmLabel="Replace token"
      disabled={create.isPending}
      description={
        <p>The current token ({scim.token_hint}) stops working at once: your provider cannot provision until you give it the new token.</p>
      }
      onConfirm={() => create.mutate({})}
    >
      Replace token
    </ConfirmButton>
  ) : (
    <button
      type="button"
      className="button"
      disabled={create.isPending}
      aria-busy={create.isPending || undefined}
      onClick={() => create.mutate({})}
    >
      {create.isPending ? 'Creating…' : 'Create token'}
    </button>
  );
  return (
    <>
      {button}
      <RowError error={create.error} />
    </>
  );
}

/** Turn provisioning off (after a confirmation): the token stops working, what it made stays. */
function TurnOff({ onDone }: { onDone: () => void }) {
  const refresh = useRefresh('/api/org/scim');
  const remove = $api.useMutation('delete', '/api/org/scim/token', {
    onSuccess: async () => {
      onDone();
      await refresh();
    },
  });
  return (
    <>
      <ConfirmButton
        title="Turn provisioning off?"
        confirmLabel="Turn off provisioning"
        disabled={remove.isPending}
        description={
          <p>
            The token stops working at once: your provider can no longer create, change or deactivate people. The users and teams it made
            stay, as they are.
          </p>
        }
        onConfirm={() => remove.mutate({})}
      >
        Turn off<span className="visually-hidden"> provisioning</span>
      </ConfirmButton>
      <RowError error={remove.error} />
    </>
  );
}

/** The token: its state, the one just made (shown once), and the buttons to make, replace or remove it. */
function Token({ scim }: { scim: Scim }) {
  const [token, setToken] = useState<string | null>(null);
  return (
    <Section title="Token">
      <TokenFacts scim={scim} />
      <div role="status">{token && <TokenOnce key={token} token={token} onDone={() => setToken(null)} />}</div>
      <div className="actions">
        <CreateToken scim={scim} onCreated={setToken} />
        {scim.token_hint && <TurnOff onDone={() => setToken(null)} />}
      </div>
    </Section>
  );
}

/** Organisation → Provisioning (admins only, as the API): the SCIM base URL, the token, the last sync. */
export default function ProvisioningPage() {
  const isAdmin = useIsAdmin();
  return (
    <>
      <PageHeader title="Provisioning">
        <p>
          Let your identity provider (Okta, Entra ID…) create, update and deactivate your people and keep teams from its groups, over SCIM
          2.0: how to connect it is below. People it deactivates cannot sign in; turning provisioning off keeps the users and teams it made.
        </p>
      </PageHeader>
      {isAdmin ? <AdminProvisioning /> : <Empty>Only admins of the organisation manage provisioning.</Empty>}
    </>
  );
}

function AdminProvisioning() {
  const scim = $api.useQuery('get', '/api/org/scim');
  return (
    <Loadable query={scim} label="the provisioning state">
      {(data) => (
        <>
          <BaseUrl url={data.scim.base_url} />
          <ProviderSteps baseUrl={data.scim.base_url} />
          <Token scim={data.scim} />
        </>
      )}
    </Loadable>
  );
}
