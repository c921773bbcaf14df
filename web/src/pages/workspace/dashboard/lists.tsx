import { Link } from 'react-router';
import { ConversationTable } from '../conversations/table';
import type { Schemas } from '../../../api/client';
import { Badge } from '../../../ui/badge';
import { count, dateTime } from '../../../ui/format';
import { Empty } from '../../../ui/states';
import { DataTable } from '../../../ui/table';

type Dashboard = Schemas['Dashboard'];

const conversationLink = (workspaceId: string, conversationId: string) => `/workspaces/${workspaceId}/conversations/${conversationId}`;

export function KnowledgeGaps({ workspaceId, gaps }: { workspaceId: string; gaps: Dashboard['knowledge_gaps'] }) {
  if (gaps.recent.length === 0) return <Empty>No knowledge gaps: the agent has found an answer to every question so far.</Empty>;
  return (
    <>
      <p className="hint">
        {count(gaps.count)} {gaps.count === 1 ? 'question' : 'questions'} in all the agent could not answer from its knowledge; the latest{' '}
        {gaps.recent.length}:
      </p>
      <DataTable caption="Latest knowledge gaps">
        <thead>
          <tr>
            <th scope="col">Question</th>
            <th scope="col">Asked</th>
            <th scope="col">Conversation</th>
          </tr>
        </thead>
        <tbody>
          {gaps.recent.map((gap) => (
            <tr key={gap.id}>
              <th scope="row">{gap.question}</th>
              <td>{dateTime(gap.created_at)}</td>
              <td>
                <Link to={conversationLink(workspaceId, gap.conversation_id)} aria-label={`Open the conversation of “${gap.question}”`}>
                  Open
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
    </>
  );
}

export function ConnectionHealth({ workspaceId, connections }: { workspaceId: string; connections: Dashboard['connections'] }) {
  if (connections.length === 0)
    return (
      <Empty>
        No connections yet: <Link to={`/workspaces/${workspaceId}/connections`}>add one</Link> to give the agent tools.
      </Empty>
    );
  return (
    <DataTable caption="Connection health">
      <thead>
        <tr>
          <th scope="col">Connection</th>
          <th scope="col">Status</th>
          <th scope="col">Last error</th>
        </tr>
      </thead>
      <tbody>
        {connections.map((connection) => (
          <tr key={connection.id}>
            <th scope="row">{connection.name}</th>
            <td>
              <Badge status={connection.status} />
            </td>
            <td>{connection.last_error ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

/** The latest conversations, as the conversations page lists them. */
export function RecentConversations({
  workspaceId,
  conversations,
}: {
  workspaceId: string;
  conversations: Dashboard['recent_conversations'];
}) {
  if (conversations.length === 0) return <Empty>No conversations yet: ask a question in the playground.</Empty>;
  return <ConversationTable caption="Recent conversations" workspaceId={workspaceId} conversations={conversations} />;
}
