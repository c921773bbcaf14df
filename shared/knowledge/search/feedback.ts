import { searchTermOf, searchWordsOf } from '../../platform/search-terms.js';

/*
 * Pseudo-relevance feedback (RM3, Lavrenko & Croft 2001; Anserini's BM25+RM3): the passages a
 * question finds first are taken as relevant, and the words they share most, weighted by how well
 * each passage matched, are searched again beside the question's own, at a lower weight. A question
 * that says "statins" then also finds the passages that say "cholesterol-lowering drugs".
 *
 * Measured on BEIR NFCorpus through the knowledge API (`npm run bench -- knowledge`,
 * docs/knowledge-bench.md): nDCG@10 0.314 → 0.327 with these settings, the published BM25 0.325.
 */

/** How many of the first passages are read for feedback (Anserini's default). */
const FEEDBACK_PASSAGES = 10;
/** How many of their words are added to the question (Anserini's default). */
const FEEDBACK_TERMS = 10;
/** The weight of an added word against one of the question (measured: 0.3 > 0.5 on NFCorpus). */
export const FEEDBACK_WEIGHT = 0.3;
/**
 * The index sizes searched with feedback. Below the first, the first ten passages are most of the
 * index and say little about the question. Above the second, the second search costs too much: it
 * scores every passage holding an added word, and the words passages share most are common ones
 * (measured, `npm run bench -- knowledge`: at 100 000 passages p50 1.7 s against 25 ms without).
 */
export const FEEDBACK_PASSAGES_RANGE = { min: 200, max: 20_000 } as const;

/** A passage found by the first search: its score, and its stored title, section and text. */
interface FirstFound {
  score: number;
  [field: string]: unknown;
}

/**
 * The terms (already stems) to add to a question whose own terms are `questionTerms`, from the
 * passages it found first (best first): each term's weight is its share of each passage's words
 * (P(t|D)), times that passage's share of the scores (P(Q|D)), summed; the question's own terms
 * and function words are left out.
 */
export function feedbackTerms(found: readonly FirstFound[], questionTerms: ReadonlySet<string>): string[] {
  const top = found.slice(0, FEEDBACK_PASSAGES);
  const total = top.reduce((sum, passage) => sum + passage.score, 0);
  if (total <= 0) return [];
  const weights = new Map<string, number>();
  for (const passage of top) {
    const terms = searchWordsOf(`${String(passage.title)} ${String(passage.section)} ${String(passage.text)}`)
      .map(searchTermOf)
      .filter((term): term is string => term !== null);
    const share = passage.score / total / terms.length;
    for (const term of terms) weights.set(term, (weights.get(term) ?? 0) + share);
  }
  return [...weights]
    .filter(([term]) => !questionTerms.has(term))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, FEEDBACK_TERMS)
    .map(([term]) => term);
}
