import { z } from 'zod';

/*
 * The embedding provider the operator configured (read by config.ts): none by default, when the
 * knowledge search ranks by full text alone; any OpenAI-compatible `/embeddings` endpoint (a local
 * Ollama, OpenAI, a gateway); or Amazon Bedrock. docs/knowledge.md, "Embeddings".
 */

export interface EmbeddingsConfig {
  provider: 'openai' | 'bedrock';
  /** The model asked; vectors of two models are never compared (the index records the model). */
  model: string;
  /** OpenAI-compatible: the API's base URL, up to and including `/v1`. */
  baseUrl: string | undefined;
  /** OpenAI-compatible: the bearer key, if the endpoint wants one. */
  apiKey: string | undefined;
  /** Asked of models that can shorten their vectors (OpenAI's v3, Titan v2); else the model's own. */
  dimensions: number | undefined;
  /** Put before a question and before a passage: some models are trained with them (`query: `, `passage: ` for E5). */
  queryPrefix: string;
  passagePrefix: string;
}

export const embeddingSettings = {
  EMBEDDINGS_PROVIDER: z.enum(['openai', 'bedrock']).optional(),
  EMBEDDINGS_BASE_URL: z.string().url().optional(),
  EMBEDDINGS_MODEL: z.string().min(1).max(200).optional(),
  EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  EMBEDDINGS_DIMENSIONS: z.coerce.number().int().min(16).max(8192).optional(),
  EMBEDDINGS_QUERY_PREFIX: z.string().max(100).default(''),
  EMBEDDINGS_PASSAGE_PREFIX: z.string().max(100).default(''),
  /** The ARN of the S3 vector bucket of the knowledge's vectors on AWS (the stack sets it). */
  VECTOR_BUCKET_ARN: z.string().startsWith('arn:').optional(),
};

type EmbeddingEnv = z.output<z.ZodObject<typeof embeddingSettings>>;

const DEFAULT_MODEL = { openai: 'text-embedding-3-small', bedrock: 'amazon.titan-embed-text-v2:0' } as const;

/**
 * The provider the variables describe: `EMBEDDINGS_PROVIDER`, or `openai` when only a base URL is
 * given; none when neither is set. An OpenAI-compatible provider without a base URL is OpenAI's.
 */
export function embeddingsOf(env: EmbeddingEnv): EmbeddingsConfig | undefined {
  const provider = env.EMBEDDINGS_PROVIDER ?? (env.EMBEDDINGS_BASE_URL ? 'openai' : undefined);
  if (!provider) return undefined;
  return {
    provider,
    model: env.EMBEDDINGS_MODEL ?? DEFAULT_MODEL[provider],
    baseUrl: provider === 'openai' ? (env.EMBEDDINGS_BASE_URL ?? 'https://api.openai.com/v1').replace(/\/+$/, '') : undefined,
    apiKey: env.EMBEDDINGS_API_KEY,
    dimensions: env.EMBEDDINGS_DIMENSIONS,
    queryPrefix: env.EMBEDDINGS_QUERY_PREFIX,
    passagePrefix: env.EMBEDDINGS_PASSAGE_PREFIX,
  };
}
