import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { api, type Schemas } from '../../../api/client';
import { chatReducer, initialChat } from './chat-state';
import { readAnswer, type StreamAnswer } from './sse';

/** The lists a query changes (the budgets: what it spent, or the 402 of one exceeded): other pages show them fresh. */
const CHANGED = [
  '/api/workspaces/{id}/conversations',
  '/api/workspaces/{id}/activity',
  '/api/workspaces/{id}/approvals',
  '/api/workspaces/{id}/dashboard',
  '/api/org/budgets',
] as const;

const STREAM = { parseAs: 'stream', headers: { Accept: 'text/event-stream' } } as const;

/**
 * The playground's conversation: asks and decides with the streaming API, one turn per question.
 * `ask` resolves to the error that refused the question before it started (nothing ran), if any.
 */
export function useChat(workspaceId: string) {
  const [state, dispatch] = useReducer(chatReducer, initialChat);
  const queryClient = useQueryClient();
  const controllers = useRef(new Set<AbortController>());
  const lastKey = useRef(0);

  // Leaving the page stops the answer, as Stop does: the service stores what was answered, marked stopped.
  useEffect(() => {
    const open = controllers.current;
    return () => {
      for (const controller of open) controller.abort();
    };
  }, []);

  /** Streams one request into turn `key`; the error before `start` is returned, a later one marks the turn failed. */
  const follow = useCallback(
    async (key: number, request: (signal: AbortSignal) => Promise<StreamAnswer>) => {
      const controller = new AbortController();
      controllers.current.add(controller);
      let started = false;
      try {
        await readAnswer(await request(controller.signal), (event) => {
          if (event.event === 'start' || event.event === 'done') started = true;
          dispatch({ type: 'event', key, event });
        });
        return undefined;
      } catch (error) {
        if (controller.signal.aborted) {
          dispatch({ type: 'stopped', key });
          return undefined;
        }
        if (started) dispatch({ type: 'failed', key, error });
        return started ? undefined : error;
      } finally {
        controllers.current.delete(controller);
        for (const path of CHANGED) void queryClient.invalidateQueries({ queryKey: ['get', path] });
      }
    },
    [queryClient],
  );

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

  /** Stops the answer being written: the request goes away, and the service stops the model and any tool not yet started. */
  const stop = useCallback(() => {
    for (const controller of controllers.current) controller.abort();
  }, []);

  const reset = useCallback(() => {
    for (const controller of controllers.current) controller.abort();
    dispatch({ type: 'reset' });
  }, []);

  return { ...state, running: state.turns.some((turn) => turn.status === 'running'), ask, decide, stop, reset };
}
