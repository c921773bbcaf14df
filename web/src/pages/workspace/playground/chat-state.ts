import { errorText, type Schemas } from '../../../api/client';
import type { Citation } from '../../../ui/citations';
import { isAnswer, type PendingApproval, type QueryResponse, type StreamEvent } from './sse';

export interface ToolLine {
  kind: 'tool';
  id: string;
  name: string;
  connection: string | null;
  state: 'running' | 'done' | 'error';
  durationMs?: number;
  /** A tool search: the tools it found (callable from then on). */
  found?: string[];
  /** The call's arguments (JSON text) and, once it ended, its result: cut short and screened by the API. */
  arguments?: string;
  result?: string;
}

/** A decision on a paused call, once the API accepted it. */
interface DecisionLine {
  kind: 'decision';
  id: string;
  tool: string;
  decision: Schemas['ApprovalDecision']['decision'];
}

/** One question and its answer, as it streams in (and goes on after an approval). */
export interface Turn {
  key: number;
  question: string;
  /** The answer so far: the joined `text` deltas, replaced by `done.answer` at the end. */
  answer: string;
  /** Tool calls and decisions, in the order they happened. */
  steps: (ToolLine | DecisionLine)[];
  status: 'running' | 'paused' | 'done' | 'failed';
  /** The last `done` of this turn (a decision's `done` carries the whole query's figures). */
  result?: QueryResponse;
  pending: PendingApproval | null;
  /** Why the turn failed, or the `error` of its answer. */
  error?: string;
  /** The decision being sent, until the API accepts it (`start`) or refuses it. */
  deciding?: DecisionLine;
  /** A decision the API refused (403, 409…): its error body, shown by the approval form. */
  decisionError?: unknown;
  /** The person stopped it: the service stored what had been answered, marked stopped. */
  stopped?: boolean;
  /** The conversation the question went to (`start`), for its transcript when no `done` comes. */
  conversationId?: string;
  /** A stored question whose answer waits for a tool call's approval (a chat opened from the history). */
  awaitingApproval?: boolean;
  /** The knowledge passages the answer cites as `[n]`: from `done`, or a stored answer's `citations`. */
  citations?: Citation[];
  /** The turn a regenerate or an edit replaces: back in its place if the service refuses the new one. */
  replaces?: Turn;
}

export interface ChatState {
  turns: Turn[];
  /** Sent with the next question so it continues the same conversation. */
  sessionId?: string;
}

export type ChatAction =
  | { type: 'ask'; key: number; question: string }
  /** The last turn asked again (regenerate), or with a new question (edit). */
  | { type: 'redo'; key: number; question: string }
  /** A stored conversation, opened to go on with it. */
  | { type: 'load'; turns: Turn[]; sessionId: string }
  | { type: 'deciding'; key: number; decision: Schemas['ApprovalDecision']['decision'] }
  | { type: 'event'; key: number; event: StreamEvent }
  | { type: 'refused'; key: number; error: unknown }
  | { type: 'failed'; key: number; error: unknown }
  | { type: 'drop'; key: number }
  | { type: 'stopped'; key: number }
  | { type: 'reset' };

export const initialChat: ChatState = { turns: [] };

function applyEvent(turn: Turn, event: StreamEvent): Turn {
  switch (event.event) {
    case 'start': {
      // The query (or the decision) was accepted: whatever waited is being decided.
      const steps = turn.deciding ? [...turn.steps, turn.deciding] : turn.steps;
      return { ...turn, steps, pending: null, deciding: undefined, decisionError: undefined, conversationId: event.data.conversation_id };
    }
    case 'text':
      return { ...turn, answer: turn.answer + event.data.delta };
    case 'tool_call':
      return { ...turn, steps: [...turn.steps, { kind: 'tool', ...event.data, state: 'running' }] };
    case 'tool_result': {
      const { id, is_error: isError, duration_ms: durationMs, found, result } = event.data;
      const state = isError ? ('error' as const) : ('done' as const);
      const ended = { state, durationMs, found, result };
      const steps = turn.steps.map((step) => (step.kind === 'tool' && step.id === id ? { ...step, ...ended } : step));
      return { ...turn, steps };
    }
    case 'approval_required':
      return { ...turn, pending: event.data };
    case 'done': {
      const data = event.data;
      if (!isAnswer(data)) return { ...turn, status: 'failed', error: data.error };
      return {
        ...turn,
        answer: data.answer,
        result: data,
        citations: data.citations,
        pending: data.pending_approval,
        status: data.pending_approval ? 'paused' : 'done',
        error: data.error ?? undefined,
      };
    }
  }
}

function update(state: ChatState, key: number, change: (turn: Turn) => Turn): ChatState {
  return { ...state, turns: state.turns.map((turn) => (turn.key === key ? change(turn) : turn)) };
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  if (action.type === 'reset') return initialChat;
  if (action.type === 'load') return { turns: action.turns, sessionId: action.sessionId };
  if (action.type === 'ask' || action.type === 'redo') {
    const turn: Turn = { key: action.key, question: action.question, answer: '', steps: [], status: 'running', pending: null };
    if (action.type === 'ask') return { ...state, turns: [...state.turns, turn] };
    return { ...state, turns: [...state.turns.slice(0, -1), { ...turn, replaces: state.turns.at(-1) }] };
  }
  // A stream of a conversation that was reset since: nothing of it belongs here.
  if (!state.turns.some((turn) => turn.key === action.key)) return state;
  switch (action.type) {
    case 'drop':
      // Refused: a new question leaves the log; a regenerate or an edit gives back the turn it replaced.
      return {
        ...state,
        turns: state.turns.flatMap((turn) => (turn.key !== action.key ? [turn] : turn.replaces ? [turn.replaces] : [])),
      };
    case 'deciding':
      return update(state, action.key, (turn) => {
        const deciding = turn.pending && {
          kind: 'decision' as const,
          id: turn.pending.id,
          tool: turn.pending.tool,
          decision: action.decision,
        };
        return { ...turn, status: 'running', deciding: deciding ?? undefined, decisionError: undefined };
      });
    case 'refused':
      return update(state, action.key, (turn) => ({ ...turn, status: 'paused', deciding: undefined, decisionError: action.error }));
    case 'failed':
      return update(state, action.key, (turn) => ({ ...turn, status: 'failed', error: errorText(action.error) }));
    case 'stopped':
      return update(state, action.key, (turn) => (turn.status === 'running' ? { ...turn, status: 'done', stopped: true } : turn));
    case 'event': {
      const { event } = action;
      const next = update(state, action.key, (turn) => applyEvent(turn, event));
      // `done` is the authority on the session (a rare race gives another than `start`'s).
      if (event.event === 'start') return { ...next, sessionId: event.data.session_id };
      if (event.event === 'done' && isAnswer(event.data)) return { ...next, sessionId: event.data.session_id };
      return next;
    }
  }
}

/** The connection an `authorization_url` is for, named by the answer's error. */
export function connectionToAuthorize(error: string | null | undefined): string | undefined {
  return error?.match(/MCP connection "([^"]+)" needs your authorization/)?.[1];
}
