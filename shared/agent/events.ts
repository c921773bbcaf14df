/*
 * What the agent loop tells a listener while it works: the events of the streaming query
 * (docs/streaming.md), in the loop's own terms. The SSE writer, the team-chat reply and the
 * coding agent's progress notifications all listen to the same events.
 */

export type AgentEvent =
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; id: string; name: string; connection: string | null }
  /** `found`: a tool search's result, the tools it made callable. */
  | { type: 'tool_result'; id: string; name: string; is_error: boolean; duration_ms: number; found?: string[] }
  | ({ type: 'approval_required' } & PendingApproval);

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
