import { BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import type { EmbeddingsConfig } from './config-embeddings.js';
import { type Embedder, type EmbeddingPurpose, EmbeddingError, inBatches, unitVector } from './embeddings.js';
import { errorMessage } from './errors.js';
import { Slots } from './slots.js';

/** Cohere's models on Bedrock take up to 96 texts a request. */
const COHERE_BATCH = 96;

/** Titan takes one text a request: this many at once. */
const TITAN_CONCURRENCY = 8;

/**
 * Amazon Bedrock's embedding models through the AWS SDK, with the function's own role: Amazon Titan
 * Text Embeddings (v2 by default: 1 024 dimensions, or `EMBEDDINGS_DIMENSIONS` 256 or 512) one text
 * a request, or Cohere Embed (`cohere.embed-…`), which batches and tells questions from passages.
 */
export class BedrockEmbedder implements Embedder {
  private readonly client: BedrockRuntimeClient;
  private readonly slots = new Slots({ concurrency: TITAN_CONCURRENCY });

  constructor(
    private readonly config: EmbeddingsConfig,
    region: string,
    readonly space: string,
  ) {
    this.client = new BedrockRuntimeClient({ region });
  }

  async embed(texts: readonly string[], purpose: EmbeddingPurpose): Promise<Float32Array[]> {
    if (this.config.model.startsWith('cohere.')) {
      return inBatches(texts, COHERE_BATCH, async (batch) => {
        const input_type = purpose === 'query' ? 'search_query' : 'search_document';
        const answer = await this.invoke({ texts: batch, input_type, truncate: 'END' });
        return this.vectorsOf(answer.embeddings, batch.length);
      });
    }
    return Promise.all(
      texts.map((inputText) =>
        this.slots.run(async () => {
          const answer = await this.invoke({
            inputText,
            normalize: true,
            ...(this.config.dimensions ? { dimensions: this.config.dimensions } : {}),
          });
          return this.vectorsOf([answer.embedding], 1)[0] as Float32Array;
        }),
      ),
    );
  }

  private async invoke(body: Record<string, unknown>): Promise<{ embedding?: number[]; embeddings?: number[][] }> {
    try {
      const answer = await this.client.send(
        new InvokeModelCommand({
          modelId: this.config.model,
          contentType: 'application/json',
          accept: 'application/json',
          body: JSON.stringify(body),
        }),
      );
      return JSON.parse(new TextDecoder().decode(answer.body));
    } catch (error) {
      throw new EmbeddingError(`Amazon Bedrock's ${this.config.model} failed: ${errorMessage(error)}`, { cause: error });
    }
  }

  private vectorsOf(vectors: unknown, expected: number): Float32Array[] {
    if (!Array.isArray(vectors) || vectors.length !== expected || !vectors.every(Array.isArray)) {
      throw new EmbeddingError(`Amazon Bedrock's ${this.config.model} answered no usable vectors`);
    }
    const dimensions = (vectors[0] as number[]).length;
    return (vectors as number[][]).map((vector) => unitVector(vector, dimensions));
  }
}
