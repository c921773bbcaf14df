import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { $api, type Answer, useRefresh } from '../../api/client';
import { Badge } from '../../ui/badge';
import { ConfirmButton } from '../../ui/confirm';
import { dateTime } from '../../ui/format';
import { PageHeader, Section } from '../../ui/page';
import { Loadable, RowError } from '../../ui/states';
import { sourceLabel } from './conversations/filters';
import { Messages } from './conversations/messages';
import { ConversationStatsView } from './conversations/stats';
import { useWorkspaceId } from './shell';

/** How long, and how often, the page asks again for the statistics after a close. */
const POLL_FOR_MS = 60_000;
const POLL_EVERY_MS = 2_000;

type Detail = Answer<'/api/workspaces/{id}/conversations/{cid}'>;

const statsSettled = (detail: Detail | undefined) => detail?.stats.stats_status === 'complete' || detail?.stats.stats_status === 'failed';

/** After a close, the statistics job runs in the background: ask again every 2 s, for up to a minute. */
function useStatsPolling() {
  const [closedAt, setClosedAt] = useState<number>();
  const [gaveUp, setGaveUp] = useState(false);
  useEffect(() => {
    if (closedAt === undefined) return;
    const timer = setTimeout(() => setGaveUp(true), POLL_FOR_MS);
    return () => clearTimeout(timer);
  }, [closedAt]);
  return {
    started: () => {
      setGaveUp(false);
      setClosedAt(Date.now());
    },
    active: (detail: Detail | undefined) => closedAt !== undefined && !gaveUp && !statsSettled(detail),
    gaveUp,
  };
}

function CloseConversation({
  workspaceId,
  conversationId,
  onClosed,
}: {
  workspaceId: string;
  conversationId: string;
  onClosed: () => void;
}) {
  const refresh = useRefresh('/api/workspaces/{id}/conversations/{cid}', '/api/workspaces/{id}/conversations');
  const close = $api.useMutation('post', '/api/workspaces/{id}/conversations/{cid}/close', {
    onSuccess: async () => {
      onClosed();
      await refresh();
    },
  });
  return (
    <>
      <ConfirmButton
        title="Close this conversation?"
        description="It takes no more messages; its statistics (sentiment, resolution, category, summary) are computed then."
        confirmLabel="Close conversation"
        // Closing ends a conversation early; nothing is deleted: not styled as destructive.
        danger={false}
        disabled={close.isPending}
        onConfirm={() => close.mutate({ params: { path: { id: workspaceId, cid: conversationId } } })}
      >
        {close.isPending ? 'Closing…' : 'Close conversation'}
      </ConfirmButton>
      <RowError error={close.error} />
    </>
  );
}

/** One conversation: its messages as a transcript, their ratings, and its statistics. */
export default function Transcript() {
  const id = useWorkspaceId();
  const { cid = '' } = useParams();
  const polling = useStatsPolling();
  const detail = $api.useQuery(
    'get',
    '/api/workspaces/{id}/conversations/{cid}',
    { params: { path: { id, cid } } },
    { refetchInterval: (query) => (polling.active(query.state.data) ? POLL_EVERY_MS : false) },
  );
  const conversation = detail.data?.conversation;
  return (
    <>
      <PageHeader
        // Its title (the first question, or the name its starter gave it) names the page and the tab.
        title={conversation?.title ?? 'Conversation'}
        actions={
          // Offered only to whoever the API lets close it (their own conversation, or an admin), while open or cold.
          conversation &&
          detail.data?.can_close && <CloseConversation workspaceId={id} conversationId={conversation.id} onClosed={polling.started} />
        }
      >
        {conversation && (
          <p className="transcript-about">
            <Badge status={conversation.status} /> {conversation.user_name || 'Unknown user'} · {sourceLabel(conversation)}
            {conversation.channel ? ` · ${conversation.channel}` : ''} · started {dateTime(conversation.first_message_at)} · last activity{' '}
            {dateTime(conversation.last_activity_at)}
          </p>
        )}
        <p>
          <Link to={`/workspaces/${id}/conversations`}>All conversations</Link>
        </p>
      </PageHeader>
      <Loadable query={detail} label="the conversation">
        {(data) => (
          <>
            <Section title="Statistics">
              <ConversationStatsView detail={data} polling={polling.active(data)} gaveUp={polling.gaveUp && !statsSettled(data)} />
            </Section>
            <Section title="Transcript">
              {data.messages.length === 0 ? (
                <p className="hint">No messages yet.</p>
              ) : (
                <Messages workspaceId={id} conversation={data.conversation} messages={data.messages} />
              )}
            </Section>
          </>
        )}
      </Loadable>
    </>
  );
}
