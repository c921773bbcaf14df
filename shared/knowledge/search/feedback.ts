import { searchTermOf, searchWordsOf } from '../../platform/search-terms.js';

/*
 * Pseudo-relevance feedback (RM3, Lavrenko & Croft 2001; Anserini's BM25+RM3): the passages a
 * question finds first are taken as relevant, and the words they share most, weighted by how well
 * each passage matched and by how rare each word is in the index, are searched again beside the
 * question's own, at a lower weight. A question that says "statins" then also finds the passages
 * that say "cholesterol-lowering drugs".
 *
 * Measured on BEIR NFCorpus through the knowledge API (`npm run bench -- knowledge`,
 * docs/knowledge-bench.md): nDCG@10 0.314 without, 0.326 with (the published BM25: 0.325).
 */

/** How many of the first passages are read for feedback (Anserini's default). */
const FEEDBACK_PASSAGES = 10;
/** How many of their words are added to the question (Anserini's default). */
const FEEDBACK_TERMS = 10;
/** The weight of an added word against one of the question (measured: 0.3 > 0.5 on NFCorpus). */
export const FEEDBACK_WEIGHT = 0.3;
/**
 * Below this many passages, the first ten passages are most of the index and say little about
 * the question: no feedback.
 */
export const FEEDBACK_MIN_PASSAGES = 200;
/**
 * A word held by more passages than this is not added. The second search scores every passage
 * holding an added word, so this bounds its cost whatever the index's size (10 words × 1 000
 * passages); without it, the common words that passages share made a search of 100 000 passages
 * take 1.7 s at p50 (`npm run bench -- knowledge`, 2026-12-07). Such a word says little anyway.
 */
const MAX_PASSAGES_OF_A_WORD = 1_000;

/** A passage found by the first search: its score, and its stored title, section and text. */
interface FirstFound {
  score: number;
  [field: string]: unknown;
}

/** What the feedback knows of the index: its size, and how many of its passages' texts hold a term. */
interface IndexStatistics {
  passages: number;
  passagesWith(term: string): number;
}

/** The terms of a text, in order, as the index has them (function words left out). */
const termsOf = (text: string): string[] =>
  searchWordsOf(text)
    .map(searchTermOf)
    .filter((term): term is string => term !== null);

/** The distinct terms of a passage's text, as the index has them (what a word's rarity is counted on). */
export const termsOfText = (text: string): Set<string> => new Set(termsOf(text));

/**
 * The terms (already stems) to add to a question whose own terms are `questionTerms`, from the
 * passages it found first (best first): each term's weight is its share of each passage's words
 * (P(t|D)) times that passage's share of the scores (P(Q|D)), summed, times its inverse document
 * frequency; the question's own terms, function words and words held by over
 * `MAX_PASSAGES_OF_A_WORD` passages are left out.
 */
export function feedbackTerms(found: readonly FirstFound[], questionTerms: ReadonlySet<string>, index: IndexStatistics): string[] {
  const top = found.slice(0, FEEDBACK_PASSAGES);
  const total = top.reduce((sum, passage) => sum + passage.score, 0);
  if (total <= 0) return [];
  const weights = new Map<string, number>();
  for (const passage of top) {
    const terms = termsOf(`${String(passage.title)} ${String(passage.section)} ${String(passage.text)}`);
    const share = passage.score / total / terms.length;
    for (const term of terms) weights.set(term, (weights.get(term) ?? 0) + share);
  }
  const candidates: [string, number][] = [];
  for (const [term, weight] of weights) {
    const holding = index.passagesWith(term);
    if (questionTerms.has(term) || holding > MAX_PASSAGES_OF_A_WORD) continue;
    candidates.push([term, weight * Math.log(index.passages / Math.max(1, holding))]);
  }
  return candidates
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, FEEDBACK_TERMS)
    .map(([term]) => term);
}
