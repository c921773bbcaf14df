import { Badge } from '../../../ui/badge';

/** The word of a sentiment score, with the thresholds the statistics job counts by (±0.25). */
function sentimentWord(score: number): 'positive' | 'neutral' | 'negative' {
  if (score > 0.25) return 'positive';
  if (score < -0.25) return 'negative';
  return 'neutral';
}

/** A sentiment score (−1 to 1) as its word and its number; "—" until the statistics are computed. */
export function Sentiment({ score }: { score: number | null }) {
  if (score === null) return <>—</>;
  return (
    <span className="sentiment">
      <Badge status={sentimentWord(score)} /> <span className="num">{score > 0 ? `+${score.toFixed(2)}` : score.toFixed(2)}</span>
    </span>
  );
}
