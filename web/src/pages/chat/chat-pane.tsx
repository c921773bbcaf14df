import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { $api } from '../../api/client';
import { ErrorNote, Loading } from '../../ui/states';
import type { Turn } from '../workspace/playground/chat-state';
import { TurnView } from '../workspace/playground/turn';
import { useChat } from '../workspace/playground/use-chat';
import { Composer } from './composer';
import { turnsOf } from './past-turns';

/** What the live region says: the finished answer once, never each delta. */
function announcementOf(turn: Turn | undefined): string {
  if (!turn || turn.status === 'running') return '';
  if (turn.status === 'failed') return `The question failed: ${turn.error ?? 'no answer'}`;
  const answer = turn.answer ? 'The answer is in.' : 'No answer text.';
  return turn.pending ? `${answer} A call to ${turn.pending.tool} waits for approval.` : answer;
}

/**
 * Keeps the chat and the address in step: a conversation opened from the history (`cid`) is read
 * and shown to go on with; a new chat's first answer puts its id in the address (a reload, or the
 * history, opens it again); New chat (no `cid` after one) starts afresh.
 */
function useConversationInAddress(chat: ReturnType<typeof useChat>, workspaceId: string, cid: string | undefined) {
  const navigate = useNavigate();
  const shownCid = useRef(cid);
  const seenSession = useRef(chat.sessionId);
  const detail = $api.useQuery(
    'get',
    '/api/workspaces/{id}/conversations/{cid}',
    { params: { path: { id: workspaceId, cid: cid ?? '' } } },
    // The chat's own conversation is on screen already, as it streamed.
    { enabled: Boolean(cid) && cid !== chat.sessionId },
  );
  const { load, reset } = chat;
  useEffect(() => {
    if (cid === undefined && shownCid.current !== undefined) reset();
    shownCid.current = cid;
  }, [cid, reset]);
  useEffect(() => {
    if (cid && detail.data && detail.data.conversation.id === cid) load(turnsOf(detail.data.messages, cid), cid);
  }, [cid, detail.data, load]);
  useEffect(() => {
    const session = chat.sessionId;
    if (session === seenSession.current) return;
    seenSession.current = session;
    if (session && session !== shownCid.current) {
      shownCid.current = session;
      void navigate(`/chat/${workspaceId}/c/${encodeURIComponent(session)}`, { replace: true });
    }
  }, [chat.sessionId, navigate, workspaceId]);
  return detail;
}

/** The conversation: its turns (streamed as they come, with their tool calls), and the question box fixed at its foot. */
export function ChatPane({ workspaceId, cid }: { workspaceId: string; cid: string | undefined }) {
  const chat = useChat(workspaceId);
  const detail = useConversationInAddress(chat, workspaceId, cid);
  const last = chat.turns.at(-1);
  const closed = detail.data?.conversation.status === 'closed';
  const loading = Boolean(cid) && cid !== chat.sessionId;
  return (
    <div className="chat-pane">
      {chat.sessionId && !loading && (
        <p className="chat-pane-head">
          <Link to={`/workspaces/${workspaceId}/conversations/${encodeURIComponent(chat.sessionId)}`}>Open the transcript</Link>
        </p>
      )}
      {loading && detail.isPending && <Loading label="Loading the chat" />}
      {loading && detail.isError && <ErrorNote error={detail.error} />}
      {!loading && chat.turns.length === 0 && (
        <p className="chat-empty">Ask anything this workspace's tools and knowledge can answer. Follow-up questions continue the chat.</p>
      )}
      {!loading && chat.turns.length > 0 && (
        <ol className="chat-log chat-turns">
          {chat.turns.map((turn) => {
            const redo = turn === last && !chat.running && !closed && turn.status !== 'paused';
            return (
              <TurnView
                key={turn.key}
                turn={turn}
                workspaceId={workspaceId}
                onDecide={(approvalId, body) => void chat.decide(turn.key, approvalId, body)}
                onRegenerate={redo && turn.question ? () => void chat.ask(turn.question, 'regenerate') : undefined}
                onEdit={redo && turn.question ? (content) => void chat.ask(content, 'edit') : undefined}
              />
            );
          })}
        </ol>
      )}
      <div className="visually-hidden" aria-live="polite">
        {announcementOf(last)}
      </div>
      {closed ? (
        <p className="hint chat-closed">This chat is closed: start a new chat to ask again.</p>
      ) : (
        <Composer running={chat.running} onAsk={chat.ask} onStop={chat.stop} />
      )}
    </div>
  );
}
