import type { Answer } from '../../../api/client';
import { Badge } from '../../../ui/badge';
import { count, money } from '../../../ui/format';
import { Loading } from '../../../ui/states';
import { Sentiment } from './sentiment';

type Detail = Answer<'/api/workspaces/{id}/conversations/{cid}'>;

const NOT_YET = <span className="hint">not computed yet</span>;

/** Why the model's part of the statistics is missing, said plainly. */
function whyMissing(detail: Detail): string {
  if (detail.stats.stats_status === 'failed')
    return 'Computing the statistics failed; an admin can retry the conversation-stats queue on the Ops page.';
  if (detail.conversation.status !== 'closed') return 'Statistics are computed by a background job once the conversation closes.';
  return 'The background job computes them shortly after the conversation closed.';
}

interface StatsProps {
  detail: Detail;
  /** After a close, while the page asks again for the statistics. */
  polling: boolean;
  /** The page stopped asking before they came. */
  gaveUp: boolean;
}

/** The conversation's statistics: the model's (sentiment, resolution, category, summary) once computed, and its figures. */
export function ConversationStatsView({ detail, polling, gaveUp }: StatsProps) {
  const { stats, messages } = detail;
  const complete = stats.stats_status === 'complete';
  const tokensIn = messages.reduce((sum, message) => sum + (message.tokens_input ?? 0), 0);
  const tokensOut = messages.reduce((sum, message) => sum + (message.tokens_output ?? 0), 0);
  return (
    <>
      {polling && <Loading label="Computing statistics" />}
      {!complete && !polling && (
        <p className="hint">{gaveUp ? 'The statistics are not ready yet: reload the page in a while.' : whyMissing(detail)}</p>
      )}
      <dl className="stats">
        <div className="stat">
          <dt>Sentiment</dt>
          <dd>{stats.sentiment_score === null ? NOT_YET : <Sentiment score={stats.sentiment_score} />}</dd>
        </div>
        <div className="stat">
          <dt>Resolution</dt>
          <dd>{stats.resolution_status ? <Badge status={stats.resolution_status} /> : NOT_YET}</dd>
        </div>
        <div className="stat">
          <dt>Category</dt>
          <dd>{stats.category ?? NOT_YET}</dd>
        </div>
        <div className="stat">
          <dt>Messages</dt>
          <dd>{count(messages.length)}</dd>
        </div>
        <div className="stat">
          <dt>Tokens in / out</dt>
          <dd>
            {count(tokensIn)} / {count(tokensOut)}
          </dd>
        </div>
        <div className="stat">
          <dt>Cost</dt>
          <dd>{money(stats.total_cost_usd)}</dd>
        </div>
      </dl>
      <h3>Summary</h3>
      <p>{stats.summary ?? NOT_YET}</p>
    </>
  );
}
