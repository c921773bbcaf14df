import { useState } from 'react';
import { $api, type Schemas } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { Badge } from '../../ui/badge';
import { ConfirmButton } from '../../ui/confirm';
import { dateTime } from '../../ui/format';
import { PageHeader, Section } from '../../ui/page';
import { Loadable, RowError } from '../../ui/states';
import { DataTable } from '../../ui/table';
import { ChannelBindings, channelLabel } from './consumers/channels';
import { CONSUMER_TYPES, ConnectConsumer, type Connected } from './consumers/connect-form';
import { ConnectedNote } from './consumers/connected';
import { useRefreshConsumers } from './consumers/refresh';
import { useWorkspaceId } from './shell';

type Consumer = Schemas['Consumer'];

const typeLabel = (type: string) => CONSUMER_TYPES.find((option) => option.value === type)?.label ?? type;

function Revoke({ consumer }: { consumer: Consumer }) {
  const refresh = useRefreshConsumers();
  const revoke = $api.useMutation('delete', '/api/connectors/consumer/{id}', { onSuccess: refresh });
  const what = `${typeLabel(consumer.type)} consumer ${consumer.name ?? consumer.id}`;
  return (
    <>
      <ConfirmButton
        title={`Revoke the ${what}?`}
        description={
          consumer.type === 'team-chat'
            ? 'Its channels are unbound at once: the bot stops answering there for this workspace.'
            : 'Its key stops working at once. This cannot be undone: connect a new consumer for a new key.'
        }
        confirmLabel="Revoke"
        disabled={revoke.isPending}
        onConfirm={() => revoke.mutate({ params: { path: { id: consumer.id } } })}
      >
        {revoke.isPending ? 'Revoking…' : 'Revoke'}
        <span className="visually-hidden"> {what}</span>
      </ConfirmButton>
      <RowError error={revoke.error} />
    </>
  );
}

function ConsumersTable({ consumers, isAdmin }: { consumers: Consumer[]; isAdmin: boolean }) {
  return (
    <DataTable
      caption="Consumers"
      columns={[
        { header: 'Type', cell: (consumer) => typeLabel(consumer.type) },
        { header: 'Name', cell: (consumer) => consumer.name ?? '—' },
        { header: 'Id', cell: (consumer) => <code>{consumer.id}</code> },
        { header: 'Status', cell: (consumer) => <Badge status={consumer.status} /> },
        {
          header: 'Channels',
          cell: (consumer) => (consumer.type === 'team-chat' ? consumer.channels.map(channelLabel).join(', ') || 'None bound' : '—'),
        },
        { header: 'Connected', cell: (consumer) => dateTime(consumer.created_at) },
        {
          header: 'Last used',
          cell: (consumer) => (consumer.last_used_at ? dateTime(consumer.last_used_at) : consumer.type === 'team-chat' ? '—' : 'Never'),
        },
        isAdmin && {
          header: 'Actions',
          className: 'access-actions',
          cell: (consumer) => (consumer.status === 'active' ? <Revoke consumer={consumer} /> : '—'),
        },
      ]}
      rows={consumers}
      rowKey={(consumer) => consumer.id}
    />
  );
}

/** The workspace's entry points; admins connect them (a key shown once), revoke them and bind chat channels. */
export default function Consumers() {
  const id = useWorkspaceId();
  const isAdmin = useIsAdmin();
  const [connecting, setConnecting] = useState(false);
  const [connected, setConnected] = useState<Connected | null>(null);
  const consumers = $api.useQuery('get', '/api/workspaces/{id}/consumers', { params: { path: { id } } });
  const channels = (consumers.data?.consumers ?? [])
    .filter((consumer) => consumer.type === 'team-chat')
    .flatMap((consumer) => consumer.channels);
  return (
    <>
      <PageHeader
        title="Consumers"
        actions={
          isAdmin &&
          !connecting && (
            <button
              type="button"
              className="button"
              onClick={() => {
                setConnected(null);
                setConnecting(true);
              }}
            >
              Connect a consumer
            </button>
          )
        }
      >
        <p>Entry points where people and programs talk to this workspace: the API, a messaging webhook, a coding agent, team chat.</p>
      </PageHeader>
      {connecting && (
        <ConnectConsumer
          workspaceId={id}
          onCancel={() => setConnecting(false)}
          onConnected={(done) => {
            setConnecting(false);
            setConnected(done);
          }}
        />
      )}
      {connected && <ConnectedNote connected={connected} workspaceId={id} onDone={() => setConnected(null)} />}
      <Section title="Connected consumers">
        <Loadable
          query={consumers}
          label="consumers"
          isEmpty={(data) => data.consumers.length === 0}
          empty={isAdmin ? 'No consumers yet: connect the first one.' : 'No consumers yet: an admin of your organisation connects them.'}
        >
          {(data) => <ConsumersTable consumers={data.consumers} isAdmin={isAdmin} />}
        </Loadable>
      </Section>
      {consumers.isSuccess && <ChannelBindings workspaceId={id} channels={channels} isAdmin={isAdmin} />}
    </>
  );
}
