import OpenAI from 'openai';
import type { EmbeddingsConfig } from './config-embeddings.js';
import { type Embedder, EmbeddingError, inBatches, unitVector } from './embeddings.js';
import { errorMessage } from './errors.js';

/** Texts sent in one request: OpenAI takes up to 2 048, a local server is kinder to fewer. */
const BATCH = 64;

/**
 * Any OpenAI-compatible `POST /embeddings` (OpenAI, a local Ollama at `http://127.0.0.1:11434/v1`,
 * a gateway), through OpenAI's own SDK: its timeouts and retries of 429s and 5xx.
 */
export class OpenAiEmbedder implements Embedder {
  private readonly client: OpenAI;

  constructor(
    private readonly config: EmbeddingsConfig,
    readonly space: string,
  ) {
    // A local server wants no key; the SDK wants one, which it sends as a bearer token.
    this.client = new OpenAI({ apiKey: config.apiKey ?? 'none', baseURL: config.baseUrl, timeout: 30_000, maxRetries: 2 });
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return inBatches(texts, BATCH, async (batch) => {
      let answer: OpenAI.CreateEmbeddingResponse;
      try {
        answer = await this.client.embeddings.create({
          model: this.config.model,
          input: batch,
          encoding_format: 'float',
          ...(this.config.dimensions ? { dimensions: this.config.dimensions } : {}),
        });
      } catch (error) {
        throw new EmbeddingError(`the embedding provider at ${new URL(this.config.baseUrl ?? '').origin} failed: ${errorMessage(error)}`, {
          cause: error,
        });
      }
      const vectors = [...(answer.data ?? [])].sort((a, b) => a.index - b.index).map((item) => item.embedding);
      if (vectors.length !== batch.length) {
        throw new EmbeddingError(`the embedding provider answered ${vectors.length} vectors for ${batch.length} texts`);
      }
      const dimensions = vectors[0]?.length ?? 0;
      return vectors.map((vector) => unitVector(vector, dimensions));
    });
  }
}
