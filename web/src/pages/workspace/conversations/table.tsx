import { Link } from 'react-router';
import type { Schemas } from '../../../api/client';
import { Badge } from '../../../ui/badge';
import { count, dateTime, money } from '../../../ui/format';
import { DataTable } from '../../../ui/table';
import { sourceLabel } from './filters';
import { Sentiment } from './sentiment';

/** Where a conversation came from: the consumer type and, in team chat, its channel. */
function channelOf(conversation: Schemas['Conversation']): string {
  const type = sourceLabel(conversation);
  return conversation.channel ? `${type} · ${conversation.channel}` : type;
}

/** A conversation's title (its first question, or who asked), linking to its transcript; who asked and its summary under it. */
function Title({ workspaceId, conversation }: { workspaceId: string; conversation: Schemas['Conversation'] }) {
  return (
    <>
      <Link to={`/workspaces/${workspaceId}/conversations/${encodeURIComponent(conversation.id)}`}>
        {conversation.title || conversation.user_name || 'Unknown user'}
        <span className="visually-hidden">, {dateTime(conversation.last_activity_at)}</span>
      </Link>
      {conversation.title && <p className="hint conv-user">{conversation.user_name || 'Unknown user'}</p>}
      {conversation.summary && <p className="hint conv-summary">{conversation.summary}</p>}
    </>
  );
}

interface ConversationTableProps {
  workspaceId: string;
  conversations: Schemas['Conversation'][];
  caption?: string;
}

/** Conversations (titled by their first question, with who asked) with their status, channel, figures and statistics; each links to its transcript. */
export function ConversationTable({ workspaceId, conversations, caption = 'Conversations' }: ConversationTableProps) {
  return (
    <DataTable
      caption={caption}
      columns={[
        { header: 'Conversation', cell: (conversation) => <Title workspaceId={workspaceId} conversation={conversation} /> },
        { header: 'Status', cell: (conversation) => <Badge status={conversation.status} /> },
        { header: 'Channel', cell: channelOf },
        { header: 'Messages', num: true, cell: (conversation) => count(conversation.message_count) },
        { header: 'Sentiment', cell: (conversation) => <Sentiment score={conversation.sentiment_score} /> },
        {
          header: 'Resolution',
          cell: (conversation) => (conversation.resolution_status ? <Badge status={conversation.resolution_status} /> : '—'),
        },
        { header: 'Category', cell: (conversation) => conversation.category ?? '—' },
        { header: 'Cost', num: true, cell: (conversation) => money(conversation.total_cost_usd) },
        { header: 'Last activity', className: 'nowrap', cell: (conversation) => dateTime(conversation.last_activity_at) },
      ]}
      rows={conversations}
      rowKey={(conversation) => conversation.id}
    />
  );
}
