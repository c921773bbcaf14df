import { useQueryClient } from '@tanstack/react-query';
import { type Dispatch, useCallback, useEffect, useRef } from 'react';
import type { ChatAction } from './chat-state';
import { readAnswer, type StreamAnswer } from './sse';

/** The lists a query changes (the budgets: what it spent, or the 402 of one exceeded): other pages show them fresh. */
const CHANGED = [
  '/api/workspaces/{id}/conversations',
  '/api/workspaces/{id}/activity',
  '/api/workspaces/{id}/approvals',
  '/api/workspaces/{id}/dashboard',
  '/api/org/budgets',
] as const;

/**
 * The streamed requests of a chat: `follow` streams one into its turn; `stop` hangs them up, which
 * stops their answers (the service stores what was answered, marked stopped). Leaving the page
 * stops them too.
 */
export function useFollow(dispatch: Dispatch<ChatAction>) {
  const queryClient = useQueryClient();
  const controllers = useRef(new Set<AbortController>());

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
    [queryClient, dispatch],
  );

  /** Stops the answers being written: the requests go away, and the service stops the model and any tool not yet started. */
  const stop = useCallback(() => {
    for (const controller of controllers.current) controller.abort();
  }, []);

  return { follow, stop };
}
