/*
 * What the agent loop tells a listener while it works: the events of the streaming query
 * (docs/streaming.md), in the loop's own terms. The SSE writer, the team-chat reply and the
 * coding agent's progress notifications all listen to the same events.
 */

export type AgentEvent =
  | { type: 'text'; delta: string }
  /** `arguments`: the call's input as JSON text, cut to TOOL_TEXT_CHARS. */
  | { type: 'tool_call'; id: string; name: string; connection: string | null; arguments: string }
  /** `result`: what the tool answered, cut to TOOL_TEXT_CHARS; `found`: a tool search's result, the tools it made callable. */
  | { type: 'tool_result'; id: string; name: string; is_error: boolean; duration_ms: number; result: string; found?: string[] }
  | ({ type: 'approval_required' } & PendingApproval);

/**
 * How much of a call's arguments and result people are shown (the stream, the stored answer): a
 * preview to see what a call did, not a copy of what the tool returned (docs/api-decisions.md).
 */
const TOOL_TEXT_CHARS = 2000;

/** A text cut to what people are shown of a tool call, saying so when it was cut. */
export function toolText(text: string): string {
  if (text.length <= TOOL_TEXT_CHARS) return text;
  return `${text.slice(0, TOOL_TEXT_CHARS)}… (${text.length - TOOL_TEXT_CHARS} more characters)`;
}

/** One tool call as the answer keeps it: what it was given and answered, as people are shown them. */
export interface ToolCallRecord {
  id: string;
  name: string;
  connection: string | null;
  arguments: string;
  result: string;
  is_error: boolean;
  duration_ms: number;
}

/** A tool call waiting for a person's approval, as the query's answer and its stream show it. */
export interface PendingApproval {
  id: string;
  tool: string;
  connection: string | null;
  input: Record<string, unknown>;
  requested_by: string;
  expires_at: string;
}

export type AgentListener = (event: AgentEvent) => void;

/**
 * Turns the text deltas of several model turns into deltas of the final answer, which is each
 * turn's text trimmed, joined by a blank line: leading blanks of a turn are dropped, trailing
 * blanks held until more text follows, and the blank line between turns sent before the next
 * turn's first visible character. So the concatenated deltas equal the stored answer.
 */
export class AnswerDeltas {
  private started = false;
  private turnStarted = false;
  private pendingBlank = '';

  /** `continuing`: the answer already has text (a loop resumed after an approval), so the next turn's text starts after a blank line. */
  constructor(
    private readonly emit: (delta: string) => void,
    continuing = false,
  ) {
    this.started = continuing;
  }

  /** A new model turn begins. */
  nextTurn(): void {
    this.turnStarted = false;
    this.pendingBlank = '';
  }

  push(delta: string): void {
    let text = delta;
    if (!this.turnStarted) {
      text = text.trimStart();
      if (!text) return;
      this.turnStarted = true;
      if (this.started) this.pendingBlank = '\n\n';
      this.started = true;
    }
    const visible = text.trimEnd();
    if (!visible) {
      this.pendingBlank += text;
      return;
    }
    this.emit(this.pendingBlank + visible);
    this.pendingBlank = text.slice(visible.length);
  }
}
