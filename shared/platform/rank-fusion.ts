/*
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009): rankings of one thing by different
 * means (full text, vectors) made one, by rank alone, so their scores need not be comparable. The
 * knowledge search and the tool search fuse with it (docs/knowledge.md, "Embeddings").
 */

/** The constant of the fusion, as its authors chose it: an item scores Σ 1 / (K + its rank). */
export const RRF_K = 60;

/** `lists` (each best first) fused: each item scored Σ 1 / (RRF_K + its rank in a list, from 1), best first (ties in the order met). */
export function fuseRanks<T>(lists: readonly (readonly T[])[], keyOf: (item: T) => string): { item: T; score: number }[] {
  const fused = new Map<string, { item: T; score: number }>();
  for (const list of lists) {
    list.forEach((item, rank) => {
      const key = keyOf(item);
      const held = fused.get(key) ?? { item, score: 0 };
      held.score += 1 / (RRF_K + rank + 1);
      fused.set(key, held);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
}
