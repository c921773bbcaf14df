import { useCallback, useReducer, useRef } from 'react';
import { api, type Schemas } from '../../../api/client';
import { chatReducer, initialChat } from './chat-state';
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

  const ask = useCallback(
    async (question: string): Promise<unknown> => {
      lastKey.current += 1;
      const key = lastKey.current;
      dispatch({ type: 'ask', key, question });
      const body = { query: question, ...(state.sessionId ? { session_id: state.sessionId } : {}) };
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

  return { ...state, running: state.turns.some((turn) => turn.status === 'running'), ask, decide, stop, reset };
}
