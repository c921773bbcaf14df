/*
 * The embedding provider's port (docs/knowledge.md, "Embeddings"): texts in, unit vectors out. The
 * adapters (`embeddings-openai.ts`: any OpenAI-compatible `/embeddings`; `embeddings-bedrock.ts`)
 * are loaded with the first call by `embedder.ts`, so a process that never embeds never loads them.
 */

/** What a text is embedded as: a question, or a passage it may be answered by. */
export type EmbeddingPurpose = 'query' | 'passage';

export interface Embedder {
  /** The vectors' space: the provider, the model and its dimensions. Two spaces are never compared. */
  readonly space: string;
  /** One unit vector per text, in order. */
  embed(texts: readonly string[], purpose: EmbeddingPurpose): Promise<Float32Array[]>;
}

/** The provider failed or answered something unusable; the message names the provider, never its key. */
export class EmbeddingError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'EmbeddingError';
  }
}

/** `vector` scaled to length 1 (cosine similarity is then a dot product); refused when it is not a vector. */
export function unitVector(values: ArrayLike<number>, dimensions: number): Float32Array {
  if (values.length !== dimensions || values.length === 0) {
    throw new EmbeddingError(`the embedding provider answered a vector of ${values.length} dimensions, not ${dimensions}`);
  }
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) sum += (values[i] as number) ** 2;
  const length = Math.sqrt(sum);
  if (!Number.isFinite(length) || length === 0) throw new EmbeddingError('the embedding provider answered a zero or invalid vector');
  const unit = new Float32Array(values.length);
  for (let i = 0; i < values.length; i += 1) unit[i] = (values[i] as number) / length;
  return unit;
}

/** Texts in batches of `size`, embedded one batch after another (a provider limits a request's inputs). */
export async function inBatches<T>(texts: readonly string[], size: number, embed: (batch: string[]) => Promise<T[]>): Promise<T[]> {
  const all: T[] = [];
  for (let start = 0; start < texts.length; start += size) all.push(...(await embed(texts.slice(start, start + size))));
  return all;
}
