import { useQueryClient } from '@tanstack/react-query';
import { $api, type Answer, errorText, type Schemas } from '../../../api/client';
import { useIsAdmin } from '../../../app/session';
import { count, dateTime, duration, money } from '../../../ui/format';
import { type AnswerSource, AddToEval } from './add-to-eval';

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

/** 👍 / 👎 on one answer, with how many rated it each way (each rater's last rating counts). */
function Feedback({ workspaceId, conversationId, message }: { workspaceId: string; conversationId: string; message: Message }) {
  const queryClient = useQueryClient();
  const rate = $api.useMutation('post', '/api/workspaces/{id}/conversations/{cid}/messages/{seq}/feedback', {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['get', '/api/workspaces/{id}/conversations/{cid}'] }),
  });
  const send = (rating: Schemas['FeedbackRequest']['rating']) =>
    rate.mutate({ params: { path: { id: workspaceId, cid: conversationId, seq: message.seq } }, body: { rating } });
  return (
    <div className="transcript-feedback">
      <button
        type="button"
        className="button secondary small"
        aria-label="Rate answer helpful"
        disabled={rate.isPending}
        onClick={() => send('up')}
      >
        <span aria-hidden="true">👍</span>
      </button>
      <span>
        {count(message.feedback.up)} <span className="visually-hidden">rated helpful</span>
      </span>
      <button
        type="button"
        className="button secondary small"
        aria-label="Rate answer not helpful"
        disabled={rate.isPending}
        onClick={() => send('down')}
      >
        <span aria-hidden="true">👎</span>
      </button>
      <span>
        {count(message.feedback.down)} <span className="visually-hidden">rated not helpful</span>
      </span>
      <span role="status" className="hint">
        {rate.isSuccess && `Thanks: rated ${rate.variables.body.rating === 'up' ? 'helpful' : 'not helpful'}.`}
      </span>
      {rate.isError && (
        <p className="form-error" role="alert">
          {errorText(rate.error)}
        </p>
      )}
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
      <div className={`bubble ${isAnswer ? 'assistant' : 'user'}`}>{message.content || <span className="hint">(no text)</span>}</div>
      {isAnswer && (
        <>
          {tools.length > 0 && (
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
