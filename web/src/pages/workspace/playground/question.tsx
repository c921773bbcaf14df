import { useId, useState } from 'react';

interface QuestionProps {
  question: string;
  /** Offered on the last question once its answer is in: sends the new text in its place. */
  onEdit?: (content: string) => void;
}

/** A question's bubble; the last one can be edited and asked again in its place. */
export function Question({ question, onEdit }: QuestionProps) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(question);
  const id = useId();
  if (editing && onEdit) {
    const send = () => {
      const content = text.trim();
      if (!content) return;
      setEditing(false);
      onEdit(content);
    };
    return (
      <form
        className="bubble user chat-edit"
        aria-label="Edit your question"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <label htmlFor={id} className="chat-who">
          Your question
        </label>
        <textarea
          id={id}
          rows={3}
          value={text}
          // biome-ignore lint/a11y/noAutofocus: the person just asked to edit this question.
          autoFocus
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              send();
            }
            if (event.key === 'Escape') setEditing(false);
          }}
        />
        <div className="actions">
          <button type="submit" className="button small" disabled={!text.trim()}>
            Send
          </button>
          <button type="button" className="button secondary small" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </div>
      </form>
    );
  }
  return (
    <div className="bubble user">
      <span className="chat-who">You</span>
      {question}
      {onEdit && (
        <div className="chat-answer-actions">
          <button
            type="button"
            className="button secondary small"
            onClick={() => {
              setText(question);
              setEditing(true);
            }}
          >
            Edit<span className="visually-hidden"> your question</span>
          </button>
        </div>
      )}
    </div>
  );
}
