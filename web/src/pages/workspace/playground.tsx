import { useState } from 'react';
import { Link } from 'react-router';
import { Field, FormError, Submit } from '../../ui/form';
import { PageHeader, Section } from '../../ui/page';
import { Empty } from '../../ui/states';
import type { Turn } from './playground/chat-state';
import { TurnView } from './playground/turn';
import { useChat } from './playground/use-chat';
import { useWorkspaceId } from './shell';

/** What the live region says: the finished answer once, never each delta. */
function announcementOf(turn: Turn | undefined): string {
  if (!turn || turn.status === 'running') return '';
  if (turn.status === 'failed') return `The question failed: ${turn.error ?? 'no answer'}`;
  const answer = turn.answer ? `Answer: ${turn.answer}` : 'No answer text.';
  return turn.pending ? `${answer} A call to ${turn.pending.tool} waits for approval.` : answer;
}

/** A refusal by a budget (402): its body names the budget, whose page says how much is left and when it resets. */
const isBudgetRefusal = (error: unknown) => typeof error === 'object' && error !== null && 'budget' in error;

interface AskFormProps {
  running: boolean;
  onAsk: (question: string) => Promise<unknown>;
  /** Stops the answer being written (Stop, or Escape in the question box). */
  onStop: () => void;
}

function AskForm({ running, onAsk, onStop }: AskFormProps) {
  const [question, setQuestion] = useState('');
  const [error, setError] = useState<unknown>();
  const submit = async () => {
    const asked = question.trim();
    setError(undefined);
    setQuestion('');
    const refused = await onAsk(asked);
    // Refused before it ran: the question comes back to the box, with the reason.
    if (refused) {
      setError(refused);
      setQuestion(asked);
    }
  };
  return (
    <form
      className="form chat-ask"
      aria-label="Ask the agent"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!running) void submit();
      }}
    >
      <FormError error={error} />
      {isBudgetRefusal(error) && (
        <p className="hint">
          <Link to="/org/budgets">See the budgets</Link>
        </p>
      )}
      <Field label="Question" name="query" error={error} hint="Enter asks; Shift+Enter starts a new line; Escape stops an answer.">
        <textarea
          rows={3}
          value={question}
          onChange={(event) => setQuestion(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
            if (event.key === 'Escape' && running) {
              event.preventDefault();
              onStop();
            }
          }}
        />
      </Field>
      <div className="actions">
        <Submit pending={running} busy="Asking">
          Ask
        </Submit>
        {running && (
          <button type="button" className="button secondary" onClick={onStop}>
            Stop
          </button>
        )}
      </div>
    </form>
  );
}

/** Ask the workspace's agent and watch the answer stream in, with its tool calls and approvals. */
export default function Playground() {
  const workspaceId = useWorkspaceId();
  const chat = useChat(workspaceId);
  const last = chat.turns.at(-1);
  return (
    <>
      <PageHeader
        title="Playground"
        actions={
          <button type="button" className="button secondary" onClick={chat.reset} disabled={chat.turns.length === 0}>
            New conversation
          </button>
        }
      >
        <p>Ask the agent as your users do: it answers with this workspace's tools, knowledge and guardrails.</p>
      </PageHeader>
      <Section title="Conversation">
        {chat.turns.length === 0 ? (
          <Empty>No questions yet: ask the first one below. Follow-up questions continue the same conversation.</Empty>
        ) : (
          <ol className="chat-log chat-turns">
            {chat.turns.map((turn) => (
              <TurnView
                key={turn.key}
                turn={turn}
                workspaceId={workspaceId}
                onDecide={(approvalId, body) => void chat.decide(turn.key, approvalId, body)}
              />
            ))}
          </ol>
        )}
        <div className="visually-hidden" aria-live="polite">
          {announcementOf(last)}
        </div>
        <AskForm running={chat.running} onAsk={chat.ask} onStop={chat.stop} />
      </Section>
    </>
  );
}
