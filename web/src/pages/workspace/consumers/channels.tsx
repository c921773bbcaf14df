import { useRef, useState } from 'react';
import { $api, type Schemas } from '../../../api/client';
import { ConfirmButton } from '../../../ui/confirm';
import { ActionForm, Field } from '../../../ui/form';
import { Section } from '../../../ui/page';
import { RowError } from '../../../ui/states';
import { DataTable } from '../../../ui/table';
import { OtherErrors } from './other-errors';
import { useRefreshConsumers } from './refresh';

type Channel = Schemas['Consumer']['channels'][number];

export const channelLabel = (channel: Channel) => (channel.channel_name ? `#${channel.channel_name}` : channel.channel_id);

/** The team-chat channels bound to the workspace; admins bind and unbind them. */
export function ChannelBindings({ workspaceId, channels, isAdmin }: { workspaceId: string; channels: Channel[]; isAdmin: boolean }) {
  const [bound, setBound] = useState('');
  return (
    <Section title="Team chat channels">
      <p className="hint">Each thread in a bound channel is a conversation of this workspace. A channel belongs to one workspace.</p>
      {bound && (
        <p className="access-note" role="status">
          {bound}
        </p>
      )}
      <DataTable
        caption="Bound channels"
        columns={[
          { header: 'Channel', cell: channelLabel },
          { header: 'Channel id', cell: (channel) => <code>{channel.channel_id}</code> },
          isAdmin && { header: 'Actions', className: 'access-actions', cell: (channel) => <Unbind channel={channel} /> },
        ]}
        rows={channels}
        rowKey={(channel) => channel.channel_id}
        empty="No channel is bound to this workspace."
      />
      {isAdmin && <BindChannel workspaceId={workspaceId} onBound={setBound} />}
    </Section>
  );
}

function Unbind({ channel }: { channel: Channel }) {
  const refresh = useRefreshConsumers();
  const unbind = $api.useMutation('delete', '/api/connectors/consumer/channel/{channel_id}', { onSuccess: refresh });
  return (
    <>
      <ConfirmButton
        title={`Unbind ${channelLabel(channel)}?`}
        description="The bot stops answering in this channel for this workspace. Its conversations stay."
        confirmLabel="Unbind"
        disabled={unbind.isPending}
        onConfirm={() => unbind.mutate({ params: { path: { channel_id: channel.channel_id } } })}
      >
        {unbind.isPending ? 'Unbinding…' : 'Unbind'}
        <span className="visually-hidden"> channel {channelLabel(channel)}</span>
      </ConfirmButton>
      <RowError error={unbind.error} />
    </>
  );
}

function BindChannel({ workspaceId, onBound }: { workspaceId: string; onBound: (message: string) => void }) {
  const refresh = useRefreshConsumers();
  const form = useRef<HTMLFormElement>(null);
  const bind = $api.useMutation('post', '/api/connectors/consumer/channel', {
    onSuccess: async (answer) => {
      await refresh();
      form.current?.reset();
      onBound(answer.message);
    },
  });
  return (
    <ActionForm
      formRef={form}
      className="form access-bind"
      label="Bind a channel"
      heading={3}
      intro={<p className="hint">The organisation's bot must be connected first (connect a team chat consumer once).</p>}
      error={bind.error}
      onSubmit={({ channel_id: channelId = '', channel_name: channelName = '' }) => {
        onBound('');
        bind.mutate({
          body: {
            type: 'team-chat',
            workspace_id: workspaceId,
            channel_id: channelId.trim(),
            ...(channelName.trim() ? { channel_name: channelName.trim() } : {}),
          },
        });
      }}
      submit="Bind channel"
      pending={bind.isPending}
      busy="Binding"
    >
      <OtherErrors error={bind.error} shown={['channel_id', 'channel_name']} />
      <Field label="Channel id" name="channel_id" error={bind.error} hint="For example C0456EFGH: channel details → About.">
        <input autoComplete="off" required />
      </Field>
      <Field label="Channel name (optional)" name="channel_name" error={bind.error}>
        <input autoComplete="off" />
      </Field>
    </ActionForm>
  );
}
