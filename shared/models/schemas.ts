import { z } from '@hono/zod-openapi';
import { MODEL_PROVIDERS } from './catalogue.js';

/** Tokens of a query or an answer: `input` the uncached input, and the prompt cache's reads and writes. */
export const TokensSchema = z
  .object({
    input: z.number().int(),
    output: z.number().int(),
    cache_read: z.number().int(),
    cache_write: z.number().int(),
  })
  .openapi('Tokens', {
    description:
      'input: uncached input tokens as the provider reports them; cache_read and cache_write: input read from and written to the prompt cache',
  });

const ModelProviderSchema = z.enum(MODEL_PROVIDERS).openapi('ModelProvider', {
  description: "anthropic: Anthropic's API with an API key; bedrock: Claude on Amazon Bedrock, on the service's AWS account",
});

/** `GET /api/org/model`: whether the organisation's questions can reach a model, never the key. */
export const ModelKeyStatusSchema = z
  .object({
    provider: ModelProviderSchema,
    key_set: z.boolean().openapi({ description: 'whether a key (or, for bedrock, the service account) answers model calls' }),
    source: z
      .enum(['organisation', 'deployment'])
      .nullable()
      .openapi({ description: "the organisation's own ai_api_key, the deployment's key or AWS account, or null when none answers" }),
  })
  .openapi('ModelKeyStatus');

/** `POST /api/org/settings/model`: the provider and (for anthropic) the key, tested before they are saved. */
export const SaveModelKeyBody = z
  .object({
    provider: ModelProviderSchema,
    api_key: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(8192, 'must be at most 8192 characters')
      .regex(/^[\x21-\x7e]+$/, 'must be the key as the provider gave it: printable characters without spaces')
      .optional()
      .openapi({ description: "anthropic only; absent: the key already set (the organisation's, else the deployment's) is tested" }),
  })
  .openapi('SaveModelKeyRequest');
export type SaveModelKeyInput = z.infer<typeof SaveModelKeyBody>;
