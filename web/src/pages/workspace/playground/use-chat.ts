import { useCallback, useReducer, useRef } from 'react';
import { api, type Schemas } from '../../../api/client';
import { chatReducer, initialChat, type Turn } from './chat-state';
import { useFollow } from './follow';

const STREAM = { parseAs: 'stream', headers: { Accept: 'text/event-stream' } } as const;

/**
 * The playground's conversation: asks and decides with the streaming API, one turn per question.
 * `ask` resolves to the error that refused the question before it started (nothing ran), if any.
 */
export function useChat(workspaceId: string) {
  const [state, dispatch] = useReducer(chatReducer, initialChat);
  const { follow, stop } = useFollow(dispatch);
  const lastKey = useRef(0);

  /**
   * Asks a new question; or (`redo`) the last one again (`regenerate`) or with the new text
   * (`edit`), in place of the last turn.
   */
  const ask = useCallback(
    async (question: string, redo?: 'regenerate' | 'edit'): Promise<unknown> => {
      lastKey.current += 1;
      const key = lastKey.current;
      dispatch({ type: redo ? 'redo' : 'ask', key, question });
      const session = state.sessionId ? { session_id: state.sessionId } : {};
      const body =
        redo === 'regenerate'
          ? { regenerate: true as const, ...session }
          : redo === 'edit'
            ? { edit: { content: question }, ...session }
            : { query: question, ...session };
      const refused = await follow(key, (signal) =>
        api.POST('/api/workspaces/{id}/query', { params: { path: { id: workspaceId } }, body, signal, ...STREAM }),
      );
      // Refused before it started (400, 409, 429…): nothing ran, so the question leaves the log.
      if (refused) dispatch({ type: 'drop', key });
      return refused;
    },
    [follow, state.sessionId, workspaceId],
  );

  const decide = useCallback(
    async (key: number, approvalId: string, body: Schemas['ApprovalDecision']) => {
      dispatch({ type: 'deciding', key, decision: body.decision });
      const refused = await follow(key, (signal) =>
        api.POST('/api/workspaces/{id}/approvals/{approval_id}', {
          params: { path: { id: workspaceId, approval_id: approvalId } },
          body,
          signal,
          ...STREAM,
        }),
      );
      if (refused) dispatch({ type: 'refused', key, error: refused });
    },
    [follow, workspaceId],
  );

  const reset = useCallback(() => {
    stop();
    dispatch({ type: 'reset' });
  }, [stop]);

  /** Opens a stored conversation: its turns, and its session for the next question. */
  const load = useCallback(
    (turns: Turn[], sessionId: string) => {
      stop();
      lastKey.current = Math.max(lastKey.current, ...turns.map((turn) => turn.key));
      dispatch({ type: 'load', turns, sessionId });
    },
    [stop],
  );

  return { ...state, running: state.turns.some((turn) => turn.status === 'running'), ask, decide, stop, reset, load };
}
