import type { Embedder } from '../platform/embeddings.js';
import { fuseRanks } from '../platform/rank-fusion.js';
import { searchTools, type ToolIndex, type ToolMatch } from './tool-index.js';
import { nearestTools, toolVectors } from './tool-vectors.js';

/*
 * The tool search with an embedding provider (docs/knowledge.md, "Embeddings"): the full-text
 * matches fused with the tools nearest the question's vector. Loaded by `search.ts` only where a
 * provider is configured, so no other process loads it at its cold start.
 */

/** Tools taken from each list before fusing them (the full-text matches and the nearest vectors). */
const CANDIDATES = 50;

/**
 * The full-text matches fused (reciprocal rank fusion) with the allowed tools nearest the
 * question's vector, 50 of each, the best `limit` kept. Throws when the provider fails.
 */
export async function fusedToolRanking(
  orgId: string,
  embedder: Embedder,
  index: ToolIndex,
  query: string,
  options: { limit: number; allowed: ReadonlySet<string> },
): Promise<ToolMatch[]> {
  const candidates = { ...options, limit: Math.max(options.limit, CANDIDATES) };
  const lexical = searchTools(index, query, candidates);
  const allowed = index.tools.filter((tool) => candidates.allowed.has(tool.id));
  const [vectors, [question]] = await Promise.all([toolVectors(orgId, embedder, allowed), embedder.embed([query], 'query')]);
  const semantic = nearestTools(vectors, question as Float32Array, candidates.limit).map((at): ToolMatch => {
    const { name, connection, description } = allowed[at] as (typeof allowed)[number];
    return { name, connection, description, score: 0 };
  });
  return fuseRanks([lexical, semantic], (match) => `${match.connection}\u0000${match.name}`)
    .slice(0, options.limit)
    .map(({ item, score }) => ({ ...item, score: Math.round(score * 10_000) / 10_000 }));
}
