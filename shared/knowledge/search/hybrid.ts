import type { Deps } from '../../deps.js';
import { errorMessage } from '../../platform/errors.js';
import { fuseRanks } from '../../platform/rank-fusion.js';
import type { FoundPassage, RankedPassage } from './passage-index.js';
import type { WorkspaceIndex } from './sharded-index.js';

/*
 * The knowledge search's ranking (docs/knowledge.md, "Embeddings"): full text always; with an
 * embedding provider and passages embedded in its space, the passages nearest the question's
 * vector too, the two lists fused by reciprocal rank fusion. A provider that fails leaves the
 * full-text ranking (logged): a search never fails because embeddings do.
 */

/** Passages taken from each list before fusing them: 50, or the limit when more are asked for. */
const CANDIDATES = 50;

const keyOf = (passage: RankedPassage) => `${passage.document_id}#${passage.position}`;

const asFound = ({ document_id, title, section, text }: RankedPassage, score: number): FoundPassage => ({
  document_id,
  title,
  section,
  text,
  score,
});

/** The `limit` passages of `index` that best answer `query`, best first, by full text and (when there are vectors) by meaning. */
export async function rankPassages(
  deps: Deps,
  where: { orgId: string; workspaceId: string },
  index: WorkspaceIndex,
  query: string,
  limit: number,
) {
  const embedder = deps.embedder;
  if (!embedder || index.documentsWithVectors(embedder.space) === 0)
    return index.query(query, limit).map((found) => asFound(found, found.score));
  const candidates = Math.max(limit, CANDIDATES);
  const lexical = index.query(query, candidates);
  let semantic: RankedPassage[];
  try {
    const [vector] = await embedder.embed([query], 'query');
    const near = deps.vectors
      ? await deps.vectors.nearest({ ...where, space: embedder.space }, vector as Float32Array, candidates)
      : index.nearest(embedder.space, vector as Float32Array, candidates);
    // Orthogonal or opposite vectors are unrelated, whatever their rank; a passage no longer indexed is gone.
    semantic = near.flatMap((hit) => (hit.similarity > 0 && index.passage(hit.documentId, hit.position)) || []);
  } catch (error) {
    deps.logger.warn('the knowledge search ranked by full text alone: the embedding provider failed', { error: errorMessage(error) });
    return lexical.slice(0, limit).map((found) => asFound(found, found.score));
  }
  return fuseRanks([lexical, semantic], keyOf)
    .slice(0, limit)
    .map(({ item, score }) => asFound(item, Math.round(score * 10_000) / 10_000));
}
