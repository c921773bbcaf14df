import { useState } from 'react';
import { $api, type Schemas } from '../../../api/client';
import { ActionForm, Field } from '../../../ui/form';
import { OtherErrors } from './other-errors';
import { useRefreshConsumers } from './refresh';

type ConsumerType = Schemas['ConnectConsumerRequest']['type'];
export type Connected = Schemas['ConnectConsumerResponse'] & { type: ConsumerType };

export const CONSUMER_TYPES: { value: ConsumerType; label: string; hint: string }[] = [
  { value: 'api', label: 'API', hint: 'Programs call the query endpoint with a key.' },
  { value: 'messaging', label: 'Messaging', hint: 'A messaging webhook (WhatsApp, SMS…) posts each message of a thread with a key.' },
  { value: 'coding-agent', label: 'Coding agent', hint: 'A coding agent uses the workspace as an MCP server with a key.' },
  { value: 'team-chat', label: 'Team chat', hint: "The organisation's chat bot answers in the workspace's bound channels." },
];

/** Connects a consumer; the answer (with its key, shown once) goes to `onConnected`. */
export function ConnectConsumer({
  workspaceId,
  onConnected,
  onCancel,
}: {
  workspaceId: string;
  onConnected: (done: Connected) => void;
  onCancel: () => void;
}) {
  const refresh = useRefreshConsumers();
  const [type, setType] = useState<ConsumerType>('api');
  const connect = $api.useMutation('post', '/api/connectors/consumer', {
    onSuccess: async (answer) => {
      await refresh();
      onConnected({ ...answer, type });
    },
  });
  const teamChat = type === 'team-chat';
  return (
    <ActionForm
      className="card form"
      label="Connect a consumer"
      heading={2}
      error={connect.error}
      onSubmit={(values) => {
        const credentials = teamChat
          ? { bot_token: values['credentials.bot_token'] ?? '', app_token: values['credentials.app_token'] ?? '' }
          : {};
        const channelId = teamChat ? values.channel_id?.trim() : '';
        const channelName = teamChat ? values.channel_name?.trim() : '';
        const name = values.name?.trim();
        connect.mutate({
          body: {
            type,
            workspace_id: workspaceId,
            ...(name ? { name } : {}),
            credentials,
            ...(channelId ? { channel_id: channelId } : {}),
            ...(channelName ? { channel_name: channelName } : {}),
          },
        });
      }}
      submit="Connect consumer"
      pending={connect.isPending}
      busy="Connecting"
      onCancel={onCancel}
    >
      <OtherErrors
        error={connect.error}
        shown={
          teamChat ? ['type', 'name', 'credentials.bot_token', 'credentials.app_token', 'channel_id', 'channel_name'] : ['type', 'name']
        }
      />
      <Field label="Type" name="type" error={connect.error} hint={CONSUMER_TYPES.find((option) => option.value === type)?.hint}>
        <select value={type} onChange={(event) => setType(event.target.value as ConsumerType)}>
          {CONSUMER_TYPES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Name (optional)" name="name" error={connect.error} hint="What you call it, such as “Support site” or “CI”.">
        <input autoComplete="off" maxLength={100} />
      </Field>
      {teamChat && <TeamChatFields error={connect.error} />}
    </ActionForm>
  );
}

/** The bot's two tokens and an optional first channel (docs/team-chat.md). */
function TeamChatFields({ error }: { error: unknown }) {
  return (
    <>
      <Field
        label="Bot token"
        name="credentials.bot_token"
        error={error}
        hint="Starts with xoxb-; stored as the organisation's chat_bot_token."
      >
        <input type="password" autoComplete="off" />
      </Field>
      <Field
        label="App token"
        name="credentials.app_token"
        error={error}
        hint="The app-level token with connections:write; starts with xapp-."
      >
        <input type="password" autoComplete="off" />
      </Field>
      <Field label="First channel id (optional)" name="channel_id" error={error} hint="For example C0123ABCD: channel details → About.">
        <input autoComplete="off" />
      </Field>
      <Field label="Channel name (optional)" name="channel_name" error={error}>
        <input autoComplete="off" />
      </Field>
    </>
  );
}
