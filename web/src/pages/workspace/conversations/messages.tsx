import { useState } from 'react';
import { $api, type Answer, type Schemas, useRefresh } from '../../../api/client';
import { useIsAdmin } from '../../../app/session';
import { Citations } from '../../../ui/citations';
import { count, dateTime, duration, money } from '../../../ui/format';
import { Markdown } from '../../../ui/markdown';
import { RowError } from '../../../ui/states';
import { type AnswerSource, AddToEval } from './add-to-eval';
import { ToolCalls } from './tool-calls';

/** A message as the conversation's answer has it (`Schemas['Message']` types `tokens` oddly). */
type Message = Answer<'/api/workspaces/{id}/conversations/{cid}'>['messages'][number];

/** The tool names of an answer: the API keeps them as a JSON-encoded array. */
function toolsOf(message: Message): string[] {
  if (!message.tools_called) return [];
  try {
    const tools: unknown = JSON.parse(message.tools_called);
    return Array.isArray(tools) ? [...new Set(tools.map(String))] : [];
  } catch {
    return [];
  }
}

/** A thumb, drawn (emoji need a font that has them): up, or turned down. */
function Thumb({ down = false }: { down?: boolean }) {
  return (
    <svg className="thumb" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path
        transform={down ? 'rotate(180 12 12)' : undefined}
        fill="currentColor"
        d="M2 21h4V9H2v12zm20-11c0-1.1-.9-2-2-2h-6.3l.95-4.57.03-.32c0-.41-.17-.79-.44-1.06L13.17 1 6.59 7.59C6.22 7.95 6 8.45 6 9v10c0 1.1.9 2 2 2h9c.83 0 1.54-.5 1.84-1.22l3.02-7.05c.09-.23.14-.47.14-.73v-2z"
      />
    </svg>
  );
}

/** Helpful / not helpful on one answer, with how many rated it each way (each rater's last rating counts); yours shows pressed. */
function Feedback({ workspaceId, conversationId, message }: { workspaceId: string; conversationId: string; message: Message }) {
  const refresh = useRefresh('/api/workspaces/{id}/conversations/{cid}');
  // The rating given here: the API counts ratings but does not say whose they are.
  const [mine, setMine] = useState<Schemas['FeedbackRequest']['rating']>();
  const rate = $api.useMutation('post', '/api/workspaces/{id}/conversations/{cid}/messages/{seq}/feedback', {
    onSuccess: (_, { body }) => {
      setMine(body.rating);
      return refresh();
    },
  });
  const send = (rating: Schemas['FeedbackRequest']['rating']) =>
    rate.mutate({ params: { path: { id: workspaceId, cid: conversationId, seq: message.seq } }, body: { rating } });
  return (
    <div className="transcript-feedback">
      <button
        type="button"
        className="button secondary small"
        aria-label="Rate answer helpful"
        aria-pressed={mine === 'up'}
        disabled={rate.isPending}
        onClick={() => send('up')}
      >
        <Thumb />
      </button>
      <span>
        {count(message.feedback.up)} <span className="visually-hidden">rated helpful</span>
      </span>
      <button
        type="button"
        className="button secondary small"
        aria-label="Rate answer not helpful"
        aria-pressed={mine === 'down'}
        disabled={rate.isPending}
        onClick={() => send('down')}
      >
        <Thumb down />
      </button>
      <span>
        {count(message.feedback.down)} <span className="visually-hidden">rated not helpful</span>
      </span>
      <span role="status" className="hint">
        {rate.isSuccess && `Thanks: rated ${rate.variables.body.rating === 'up' ? 'helpful' : 'not helpful'}.`}
      </span>
      <RowError error={rate.error} />
    </div>
  );
}

/** Earlier messages a case may carry (the API keeps at most 40). */
const MAX_HISTORY = 40;

/** What an answer gives a case of an evaluation: the user message before it, the messages before that, its tools. */
function sourceOf(messages: Message[], index: number): AnswerSource | undefined {
  const message = messages[index];
  if (message?.role !== 'assistant') return undefined;
  const asked = messages.slice(0, index).findLastIndex((earlier) => earlier.role === 'user');
  const question = messages[asked];
  if (asked < 0 || !question) return undefined;
  const history = messages
    .slice(0, asked)
    .map(({ role, content }) => ({ role, content }))
    .slice(-MAX_HISTORY);
  return { question: question.content, history, tools: toolsOf(message) };
}

interface MessageProps {
  workspaceId: string;
  conversation: Schemas['Conversation'];
  message: Message;
  /** An answer's question and tools, for "Add to evaluation" (admins). */
  source?: AnswerSource;
}

/** One message of the transcript: who, when, the text; an answer also its tools, figures and ratings. */
function MessageItem({ workspaceId, conversation, message, source }: MessageProps) {
  const isAnswer = message.role === 'assistant';
  const tools = toolsOf(message);
  return (
    <li className={`transcript-message transcript-${message.role}`}>
      <p className="transcript-head">
        <strong>{isAnswer ? 'Assistant' : 'User'}</strong>
        {!isAnswer && conversation.user_name && <span> {conversation.user_name}</span>}
        <span className="hint">
          {' · '}
          <time dateTime={message.created_at}>{dateTime(message.created_at)}</time>
        </span>
      </p>
      <div className={`bubble ${isAnswer ? 'assistant' : 'user'}`}>
        {!message.content ? <span className="hint">(no text)</span> : isAnswer ? <Markdown text={message.content} /> : message.content}
        {message.stopped && <span className="hint chat-stopped">Stopped: the person stopped this answer here.</span>}
      </div>
      {isAnswer && (
        <>
          <Citations workspaceId={workspaceId} citations={message.citations} />
          {message.tool_calls.length > 0 && <ToolCalls calls={message.tool_calls} />}
          {/* An answer stored before its calls were kept names them only. */}
          {message.tool_calls.length === 0 && tools.length > 0 && (
            <p className="tool-line">
              Tools called:{' '}
              {tools.map((tool, index) => (
                <span key={tool}>
                  {index > 0 && ', '}
                  <code>{tool}</code>
                </span>
              ))}
            </p>
          )}
          <p className="tool-line">
            Tokens {count(message.tokens_input)} in / {count(message.tokens_output)} out · Cost {money(message.cost_usd)} · Time{' '}
            {duration(message.duration_ms)}
          </p>
          <Feedback workspaceId={workspaceId} conversationId={conversation.id} message={message} />
          {source && <AddToEval workspaceId={workspaceId} source={source} answerLabel={`the answer of ${dateTime(message.created_at)}`} />}
        </>
      )}
    </li>
  );
}

export function Messages({
  workspaceId,
  conversation,
  messages,
}: {
  workspaceId: string;
  conversation: Schemas['Conversation'];
  messages: Message[];
}) {
  const isAdmin = useIsAdmin();
  return (
    <ol className="transcript">
      {messages.map((message, index) => (
        <MessageItem
          key={message.id}
          workspaceId={workspaceId}
          conversation={conversation}
          message={message}
          source={isAdmin ? sourceOf(messages, index) : undefined}
        />
      ))}
    </ol>
  );
}
