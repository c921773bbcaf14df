import { Link } from 'react-router';
import type { Schemas } from '../../../api/client';
import { count, duration, money } from '../../../ui/format';
import { Markdown } from '../../../ui/markdown';
import { Citations } from '../../../ui/citations';
import { CopyButton } from '../../../ui/copy';
import { ToolCallDetails } from '../../../ui/tool-call';
import { ApprovalCard } from './approval';
import { Question } from './question';
import { connectionToAuthorize, type ToolLine, type Turn } from './chat-state';
import type { QueryResponse } from './sse';

function toolState(tool: ToolLine): string {
  if (tool.state === 'running') return 'running…';
  const took = duration(tool.durationMs);
  return tool.state === 'error' ? `error after ${took}` : `done in ${took}`;
}

/** Where a call ran: its connection, the knowledge base, or the workspace's tools (a tool search). */
function placeOf(tool: ToolLine): string {
  if (tool.connection) return `on ${tool.connection}`;
  return tool.name === 'search_tools' ? 'among the workspace’s tools' : 'in the knowledge base';
}

/** What a tool search found, after its line. */
function foundOf(tool: ToolLine): string {
  if (!tool.found) return '';
  return tool.found.length ? `: found ${tool.found.join(', ')}` : ': found nothing new';
}

/** One line per tool call, as it starts and ends, and per decision on a paused call. */
function Steps({ steps }: { steps: Turn['steps'] }) {
  return (
    <ul className="chat-tools" aria-label="Tool calls">
      {steps.map((step) =>
        step.kind === 'tool' ? (
          <li key={step.id} className={`tool-line chat-tool-${step.state}`}>
            <ToolCallDetails call={step}>
              <span aria-hidden="true">⚙ </span>
              <code>{step.name}</code> {placeOf(step)} — {toolState(step)}
              {foundOf(step)}
            </ToolCallDetails>
          </li>
        ) : (
          <li key={step.id} className="tool-line">
            <span aria-hidden="true">{step.decision === 'approve' ? '✓ ' : '✗ '}</span>
            You {step.decision === 'approve' ? 'approved' : 'denied'} the call to <code>{step.tool}</code>
          </li>
        ),
      )}
    </ul>
  );
}

/**
 * "930 in / 60 out"; with prompt-cache reads, how much of the input they were: "1,730 in (800 from
 * cache) / 60 out". `input` is the uncached part, so all input is it plus cache reads and writes.
 */
function tokensText(tokens: QueryResponse['tokens']): string {
  const input = tokens.input + tokens.cache_read + tokens.cache_write;
  const cached = tokens.cache_read > 0 ? ` (${count(tokens.cache_read)} from cache)` : '';
  return `${count(input)} in${cached} / ${count(tokens.output)} out`;
}

/** What the answer cost, and where the conversation is kept. */
function TurnStats({ result, workspaceId }: { result: QueryResponse; workspaceId: string }) {
  return (
    <div className="chat-meta">
      <dl>
        <div>
          <dt>Tokens</dt>
          <dd>{tokensText(result.tokens)}</dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd>{money(result.cost_usd)}</dd>
        </div>
        <div>
          <dt>Time</dt>
          <dd>{duration(result.duration_ms)}</dd>
        </div>
      </dl>
      <TranscriptLink workspaceId={workspaceId} conversationId={result.conversation_id} />
    </div>
  );
}

function TranscriptLink({ workspaceId, conversationId }: { workspaceId: string; conversationId: string }) {
  return <Link to={`/workspaces/${workspaceId}/conversations/${encodeURIComponent(conversationId)}`}>View transcript</Link>;
}

function AuthorizeLink({ result }: { result: QueryResponse }) {
  if (!result.authorization_url) return null;
  const connection = connectionToAuthorize(result.error);
  return (
    <p>
      <a className="button secondary" href={result.authorization_url} target="_blank" rel="noopener noreferrer">
        Authorize {connection ?? 'the connection'}
        <span className="visually-hidden"> (opens in a new tab)</span>
      </a>{' '}
      <span className="hint">Then ask again.</span>
    </p>
  );
}

interface TurnProps {
  turn: Turn;
  workspaceId: string;
  onDecide: (approvalId: string, body: Schemas['ApprovalDecision']) => void;
  /** The last turn, answered: asked again in place of its answer. */
  onRegenerate?: () => void;
  /** The last turn, answered: its question edited and asked again. */
  onEdit?: (content: string) => void;
}

/** A question, the tool calls it led to, and the answer as it streams. */
export function TurnView({ turn, workspaceId, onDecide, onRegenerate, onEdit }: TurnProps) {
  const running = turn.status === 'running';
  return (
    <li className="chat-turn">
      {turn.question && <Question question={turn.question} onEdit={running ? undefined : onEdit} />}
      {turn.steps.length > 0 && <Steps steps={turn.steps} />}
      <div className="bubble assistant" aria-busy={running || undefined}>
        <span className="chat-who">Assistant</span>
        {turn.answer && <Markdown text={turn.answer} />}
        {running && (
          <span className="chat-working">
            <span className="spinner" aria-hidden="true" /> {turn.answer ? 'Still working…' : 'Working…'}
          </span>
        )}
        {!running && !turn.answer && !turn.awaitingApproval && <span className="hint">No answer text.</span>}
        {turn.awaitingApproval && !turn.answer && (
          <span className="hint">
            A tool call waits for approval: <Link to={`/workspaces/${workspaceId}/approvals`}>see the approvals</Link>. The answer comes
            once it is decided.
          </span>
        )}
        {turn.stopped && <span className="hint chat-stopped">Stopped: this is what was answered before you stopped it.</span>}
        {!running && (turn.answer || onRegenerate) && (
          <div className="chat-answer-actions">
            {turn.answer && <CopyButton value={turn.answer} what="the answer" />}
            {onRegenerate && (
              <button type="button" className="button secondary" onClick={onRegenerate}>
                Regenerate<span className="visually-hidden"> the answer</span>
              </button>
            )}
          </div>
        )}
      </div>
      {!running && <Citations workspaceId={workspaceId} citations={turn.citations} />}
      {turn.error && (
        <p className="form-error" role="alert">
          {turn.error}
        </p>
      )}
      {turn.result && <AuthorizeLink result={turn.result} />}
      {turn.pending && (
        <ApprovalCard
          workspaceId={workspaceId}
          pending={turn.pending}
          deciding={running}
          error={turn.decisionError}
          onDecide={(body) => turn.pending && onDecide(turn.pending.id, body)}
        />
      )}
      {turn.result && !running && <TurnStats result={turn.result} workspaceId={workspaceId} />}
      {turn.stopped && !turn.result && turn.conversationId && (
        <div className="chat-meta">
          <TranscriptLink workspaceId={workspaceId} conversationId={turn.conversationId} />
        </div>
      )}
    </li>
  );
}
