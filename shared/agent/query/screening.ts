import {
  applyGuardrails,
  redactAll,
  screeningCost,
  unusableGuardrail,
  type GuardrailHit,
  type Guardrail,
  REDACTED,
  SCREENING_BUDGET,
} from '../../guardrails/index.js';
import { ValidationError } from '../../platform/errors.js';
import type { AgentEvent, ToolCallRecord } from '../events.js';

/*
 * Guardrails on the way in: a blocked question never reaches the model; redacted parts never
 * leave. The history a new conversation starts with is screened like the question.
 */

type HistoryMessage = { role: 'user' | 'assistant'; content: string };

export interface ScreenedInput {
  /** The question as the model sees it and the store keeps it (redacted). */
  text: string;
  /** A new conversation's starting history, screened. */
  history: HistoryMessage[];
  hits: GuardrailHit[];
  /** The guardrail that blocks the question or its history, if one does. */
  blockedBy: Guardrail | undefined;
  /** Why a stored guardrail cannot run: the query stops before anything is screened, sent or kept in clear. */
  unusable: string | undefined;
}

/**
 * Screening runs in the shared process: a question with a long starting history, under a workspace
 * whose patterns are at their size limit, is refused (400) rather than screened for seconds.
 */
function refuseOverlongScreening(guardrails: Guardrail[], query: string, history: HistoryMessage[]): void {
  const asked = [query, ...history.filter((message) => message.role === 'user').map((message) => message.content)];
  const answered = history.filter((message) => message.role === 'assistant').map((message) => message.content);
  const cost = screeningCost(guardrails, asked, 'input') + screeningCost(guardrails, answered, 'output');
  if (cost <= SCREENING_BUDGET) return;
  throw new ValidationError('invalid request body', [
    { path: 'history', message: "too long to screen with this workspace's guardrails: send fewer or shorter messages" },
  ]);
}

/** Screens the question and, for a new conversation, the history it starts with. */
export function screenInput(guardrails: Guardrail[], query: string, startingHistory: HistoryMessage[]): ScreenedInput {
  const unusable = unusableGuardrail(guardrails);
  const newHistory = startingHistory.filter((message) => message.content.trim().length > 0);
  refuseOverlongScreening(guardrails, query, newHistory);
  if (unusable) return { text: REDACTED, history: [], hits: [], blockedBy: undefined, unusable };
  const hits: GuardrailHit[] = [];
  let blockedBy: Guardrail | undefined;
  const history = newHistory.map((message) => {
    const result = applyGuardrails(guardrails, message.content, message.role === 'user' ? 'input' : 'output');
    hits.push(...result.hits);
    blockedBy ??= result.blockedBy;
    return { role: message.role, content: result.text };
  });
  const screened = applyGuardrails(guardrails, query, 'input');
  // The question's hits come after its history's, as they are stored.
  return { text: screened.text, history, hits: [...hits, ...screened.hits], blockedBy: screened.blockedBy ?? blockedBy, unusable };
}

/** Guardrails on the way out: the answer returned and stored, or withheld. */
export function screenAnswer(
  guardrails: Guardrail[],
  answer: string,
  /** What is withheld, as the person is told (a tool's answer, through the MCP gateway). */
  what = 'answer',
): { answer: string; hits: GuardrailHit[]; withheldBy: Guardrail | undefined } {
  const screened = applyGuardrails(guardrails, answer, 'output');
  if (!screened.blockedBy) return { answer: screened.text, hits: screened.hits, withheldBy: undefined };
  return {
    answer: `The ${what} was withheld: it matches the workspace's guardrail "${screened.blockedBy.name}".`,
    hits: screened.hits,
    withheldBy: screened.blockedBy,
  };
}

/**
 * What people are shown of tool calls (the stream's events, the stored answer) passes the output
 * guardrails too: every pattern redacted, as in what is safe to show or store. Tool data is not
 * the answer, so no hit is recorded for it.
 */
export function screenToolEvent(guardrails: Guardrail[], event: AgentEvent): AgentEvent {
  if (event.type === 'tool_call') return { ...event, arguments: redactAll(guardrails, event.arguments, 'output') };
  if (event.type === 'tool_result') return { ...event, result: redactAll(guardrails, event.result, 'output') };
  return event;
}

/** The calls an answer keeps, screened like the stream's tool events. */
export function screenToolCalls(guardrails: Guardrail[], calls: ToolCallRecord[] | undefined): ToolCallRecord[] | undefined {
  return calls?.map((call) => ({
    ...call,
    arguments: redactAll(guardrails, call.arguments, 'output'),
    result: redactAll(guardrails, call.result, 'output'),
  }));
}
