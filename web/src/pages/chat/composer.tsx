import { useState } from 'react';
import { Link } from 'react-router';
import { Field, FormError, Submit } from '../../ui/form';

/** A refusal by a budget (402): its body names the budget, whose page says how much is left and when it resets. */
const isBudgetRefusal = (error: unknown) => typeof error === 'object' && error !== null && 'budget' in error;

interface ComposerProps {
  running: boolean;
  /** Resolves to the error that refused the question before it ran, if any. */
  onAsk: (question: string) => Promise<unknown>;
  /** Stops the answer being written (Stop, or Escape in the question box). */
  onStop: () => void;
}

/** The question box at the foot of the chat: Enter asks, Shift+Enter starts a new line, Escape stops. */
export function Composer({ running, onAsk, onStop }: ComposerProps) {
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
          rows={2}
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
