import { Link } from 'react-router';
import type { Schemas } from '../../../api/client';
import { Badge } from '../../../ui/badge';
import { count, dateTime, money } from '../../../ui/format';
import { DataTable } from '../../../ui/table';
import { optionLabel } from './filters';
import { Sentiment } from './sentiment';

/** Where a conversation came from: the consumer type and, in team chat, its channel. */
function channelOf(conversation: Schemas['Conversation']): string {
  const type = optionLabel(conversation.consumer_type);
  return conversation.channel ? `${type} · ${conversation.channel}` : type;
}

interface ConversationTableProps {
  workspaceId: string;
  conversations: Schemas['Conversation'][];
  caption?: string;
}

/** Conversations (titled by their first question, with who asked) with their status, channel, figures and statistics; each links to its transcript. */
export function ConversationTable({ workspaceId, conversations, caption = 'Conversations' }: ConversationTableProps) {
  return (
    <DataTable caption={caption}>
      <thead>
        <tr>
          <th scope="col">Conversation</th>
          <th scope="col">Status</th>
          <th scope="col">Channel</th>
          <th scope="col" className="num">
            Messages
          </th>
          <th scope="col">Sentiment</th>
          <th scope="col">Resolution</th>
          <th scope="col">Category</th>
          <th scope="col" className="num">
            Cost
          </th>
          <th scope="col">Last activity</th>
        </tr>
      </thead>
      <tbody>
        {conversations.map((conversation) => (
          <tr key={conversation.id}>
            <th scope="row">
              <Link to={`/workspaces/${workspaceId}/conversations/${encodeURIComponent(conversation.id)}`}>
                {conversation.title || conversation.user_name || 'Unknown user'}
                <span className="visually-hidden">, {dateTime(conversation.last_activity_at)}</span>
              </Link>
              {conversation.title && <p className="hint conv-user">{conversation.user_name || 'Unknown user'}</p>}
              {conversation.summary && <p className="hint conv-summary">{conversation.summary}</p>}
            </th>
            <td>
              <Badge status={conversation.status} />
            </td>
            <td>{channelOf(conversation)}</td>
            <td className="num">{count(conversation.message_count)}</td>
            <td>
              <Sentiment score={conversation.sentiment_score} />
            </td>
            <td>{conversation.resolution_status ? <Badge status={conversation.resolution_status} /> : '—'}</td>
            <td>{conversation.category ?? '—'}</td>
            <td className="num">{money(conversation.total_cost_usd)}</td>
            <td className="nowrap">{dateTime(conversation.last_activity_at)}</td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
