import { Link } from 'react-router';
import { ConnectionHealthTable } from '../connections/health';
import { ConversationTable } from '../conversations/table';
import type { Schemas } from '../../../api/client';
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
      <DataTable
        caption="Latest knowledge gaps"
        columns={[
          { header: 'Question', cell: (gap) => gap.question },
          { header: 'Asked', cell: (gap) => dateTime(gap.created_at) },
          {
            header: 'Conversation',
            cell: (gap) => (
              <Link to={conversationLink(workspaceId, gap.conversation_id)} aria-label={`Open the conversation of “${gap.question}”`}>
                Open
              </Link>
            ),
          },
        ]}
        rows={gaps.recent}
        rowKey={(gap) => gap.id}
      />
    </>
  );
}

export function ConnectionHealth({ workspaceId, connections }: { workspaceId: string; connections: Dashboard['connections'] }) {
  return (
    <ConnectionHealthTable
      connections={connections}
      empty={
        <>
          No connections yet: <Link to={`/workspaces/${workspaceId}/connections`}>add one</Link> to give the agent tools.
        </>
      }
    />
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
