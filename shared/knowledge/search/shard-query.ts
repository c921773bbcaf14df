import type { SearchResult } from 'minisearch';
import { searchTermOf, searchWordsOf } from '../../platform/search-terms.js';
import { FEEDBACK_MIN_PASSAGES, feedbackTerms } from './feedback.js';
import type { PassageIndex, RankedPassage } from './passage-index.js';

/*
 * A question searched over a workspace's index, which is one shard or several
 * (search/sharded-index.ts): each shard's passages found by MiniSearch (BM25+, its own term
 * statistics, as a search engine's shards score), merged best first; then the question widened by
 * the words its first passages share (feedback.ts), counted over all the shards, and those words
 * searched in each shard again.
 */

/** The words of a question searched: each once, at most this many (a question says what it wants in fewer). */
const MAX_QUERY_WORDS = 32;

/** `search` of every shard, as one list best first (a shard's own list is best first already). */
function acrossShards(shards: readonly PassageIndex[], search: (shard: PassageIndex) => SearchResult[]): SearchResult[] {
  if (shards.length === 1) return search(shards[0] as PassageIndex);
  return shards.flatMap(search).sort((a, b) => b.score - a.score);
}

/** The passages of `shards` whose words best match `query`, best first. */
export function queryShards(shards: readonly PassageIndex[], query: string, limit: number): RankedPassage[] {
  const words = [...new Set(searchWordsOf(query))].slice(0, MAX_QUERY_WORDS);
  if (words.length === 0) return [];
  const first = acrossShards(shards, (shard) => shard.searchWords(words));
  return withFeedback(shards, words, first, limit).map((found) => ({
    document_id: String(found.document_id),
    title: String(found.title),
    section: String(found.section),
    text: String(found.text),
    score: Math.round(found.score * 1000) / 1000,
    position: Number(String(found.id).slice(String(found.id).lastIndexOf('#') + 1)),
  }));
}

/**
 * The best `limit` passages of the question, widened by the words its first passages share
 * (feedback.ts) when the index is large enough for them to mean something. Only the added words
 * are searched again (they are rare, so that search is small), and their scores are added to the
 * first search's: the question's own words are not scored twice.
 */
function withFeedback(shards: readonly PassageIndex[], words: string[], first: SearchResult[], limit: number): SearchResult[] {
  const passages = shards.reduce((sum, shard) => sum + shard.passages, 0);
  if (passages < FEEDBACK_MIN_PASSAGES || first.length === 0) return first.slice(0, limit);
  const questionTerms = new Set(words.map(searchTermOf).filter((term): term is string => term !== null));
  const statistics = { passages, passagesWith: (term: string) => shards.reduce((sum, shard) => sum + shard.passagesWith(term), 0) };
  const added = feedbackTerms(first, questionTerms, statistics);
  if (added.length === 0) return first.slice(0, limit);
  const second = acrossShards(shards, (shard) => shard.searchAdded(added));
  return withAddedScores(first, second, limit);
}

/**
 * MiniSearch scores a passage by the sum of its terms' BM25 scores times how many of the query's
 * terms it matched (`search`); as one search of both queries would, a passage found by both has
 * its sums added and its matched terms counted together.
 */
function combined(first: SearchResult | undefined, second: SearchResult): number {
  const matched = (found: SearchResult) => Math.max(1, found.queryTerms.length);
  const firstSum = first ? first.score / matched(first) : 0;
  const firstMatched = first ? matched(first) : 0;
  return (firstSum + second.score / matched(second)) * (firstMatched + matched(second));
}

/**
 * The best `limit` of `first` (sorted, best first) once each passage found by `second` has its
 * score raised (`combined`): those are sorted again (few); the others keep their order.
 */
function withAddedScores(first: SearchResult[], second: SearchResult[], limit: number): SearchResult[] {
  const raisedIds = new Set(second.map((found) => found.id));
  // One pass over the first search's passages (possibly most of the index), keeping only those raised.
  const firstById = new Map<unknown, SearchResult>();
  for (const found of first) if (raisedIds.has(found.id)) firstById.set(found.id, found);
  const raised = second
    .map((found) => ({ ...(firstById.get(found.id) ?? found), score: combined(firstById.get(found.id), found) }))
    .sort((a, b) => b.score - a.score);
  // Both are best first: the best `limit` of the two, merged; the first's raised ones are skipped.
  const best: SearchResult[] = [];
  let [r, k] = [0, 0];
  while (best.length < limit) {
    while (k < first.length && raisedIds.has(first[k]?.id)) k += 1;
    const [nextRaised, nextKept] = [raised[r], first[k]];
    if (!nextRaised && !nextKept) break;
    if (nextRaised && (!nextKept || nextRaised.score >= nextKept.score)) {
      best.push(nextRaised);
      r += 1;
    } else if (nextKept) {
      best.push(nextKept);
      k += 1;
    }
  }
  return best;
}
