import { z } from '@hono/zod-openapi';

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
