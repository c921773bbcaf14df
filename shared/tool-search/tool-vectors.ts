import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Embedder } from '../platform/embeddings.js';
import type { SearchableTool } from './tool-index.js';

/*
 * Tools' vectors for the tool search's fusion (docs/knowledge.md, "Embeddings"): each tool embedded
 * as its offered name, its connection and its description, once per process, organisation and
 * embedding space, kept by the digest of that text, so a tools version that changes one tool embeds
 * that one only. Never shared between organisations (as the built indexes, search.ts): how fast a
 * first search answers tells nothing of another tenant's tools.
 */

/** Tools' vectors this process holds: a 1 536-dimension vector is 6 KB, so 20 000 are 120 MB at most. */
const held = new LRUCache<string, Float32Array>({ max: 20_000 });

type ToolText = Pick<SearchableTool, 'name' | 'connection' | 'description'>;

const textOf = (tool: ToolText) => `${tool.name} (${tool.connection})\n\n${tool.description}`;

/**
 * Each tool's text digest, kept with the tool (the tool index's own objects, kept as long as the
 * index): a search hashes a tool's text once, not once per search.
 */
const digests = new WeakMap<ToolText, string>();

function digestOf(tool: ToolText): string {
  let digest = digests.get(tool);
  if (digest === undefined) {
    digest = createHash('sha256').update(textOf(tool)).digest('base64url');
    digests.set(tool, digest);
  }
  return digest;
}

const keyOf = (orgId: string, space: string, tool: ToolText) => `${orgId}\u0000${space}\u0000${digestOf(tool)}`;

/** Each tool's vector, in order: those held, and the others embedded at once (in the provider's batches). */
export async function toolVectors(orgId: string, embedder: Embedder, tools: readonly ToolText[]): Promise<Float32Array[]> {
  const keys = tools.map((tool) => keyOf(orgId, embedder.space, tool));
  const found = new Map<string, Float32Array>();
  for (const key of keys) {
    const vector = held.get(key);
    if (vector) found.set(key, vector);
  }
  const missing = [...new Set(keys.filter((key) => !found.has(key)))];
  if (missing.length > 0) {
    const texts = new Map(tools.map((tool, i) => [keys[i] as string, textOf(tool)]));
    const embedded = await embedder.embed(
      missing.map((key) => texts.get(key) as string),
      'passage',
    );
    for (const [i, key] of missing.entries()) {
      found.set(key, embedded[i] as Float32Array);
      held.set(key, embedded[i] as Float32Array);
    }
  }
  return keys.map((key) => found.get(key) as Float32Array);
}

/** The indexes of the `limit` tools nearest `query` (unit vectors), nearest first; none unrelated (similarity ≤ 0). */
export function nearestTools(vectors: readonly Float32Array[], query: Float32Array, limit: number): number[] {
  const near: { at: number; similarity: number }[] = [];
  for (const [at, vector] of vectors.entries()) {
    let similarity = 0;
    for (let i = 0; i < query.length; i += 1) similarity += (vector[i] as number) * (query[i] as number);
    if (similarity > 0) near.push({ at, similarity });
  }
  return near
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, limit)
    .map((hit) => hit.at);
}
