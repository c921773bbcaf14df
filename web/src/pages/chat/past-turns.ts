import type { Answer } from '../../api/client';
import type { ToolLine, Turn } from '../workspace/playground/chat-state';

type Message = Answer<'/api/workspaces/{id}/conversations/{cid}'>['messages'][number];

/** A stored answer's tool calls as the chat shows them while they run. */
function stepsOf(message: Message): ToolLine[] {
  return message.tool_calls.map((call) => ({
    kind: 'tool',
    id: call.id,
    name: call.name,
    connection: call.connection,
    state: call.is_error ? 'error' : 'done',
    durationMs: call.duration_ms,
    arguments: call.arguments,
    result: call.result,
  }));
}

/**
 * A stored conversation's messages as the chat's turns: each question with the answer after it (a
 * question without one, or an answer after a starting history without one, stands alone). Keys
 * count down from -1, so they never meet the keys of the questions asked from now on.
 */
export function turnsOf(messages: Message[], conversationId: string): Turn[] {
  const turns: Turn[] = [];
  for (const message of messages) {
    const open = turns.at(-1);
    if (message.role === 'assistant' && open && !open.answer && open.status === 'paused') {
      turns[turns.length - 1] = {
        ...open,
        answer: message.content,
        steps: stepsOf(message),
        citations: message.citations,
        status: 'done',
        stopped: message.stopped || undefined,
      };
      continue;
    }
    turns.push({
      key: -(turns.length + 1),
      question: message.role === 'user' ? message.content : '',
      answer: message.role === 'assistant' ? message.content : '',
      steps: message.role === 'assistant' ? stepsOf(message) : [],
      citations: message.role === 'assistant' ? message.citations : undefined,
      // A question still without its answer: `paused` until the answer comes (an approval, or none).
      status: message.role === 'user' ? 'paused' : 'done',
      pending: null,
      stopped: message.stopped || undefined,
      awaitingApproval: message.awaiting_approval || undefined,
      conversationId,
    });
  }
  // A question left without an answer waits for an approval (it stays paused: no regenerate or edit), or failed.
  return turns.map((turn) => (turn.status === 'paused' && !turn.awaitingApproval ? { ...turn, status: 'done' } : turn));
}
