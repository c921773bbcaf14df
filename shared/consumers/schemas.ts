import { z } from '@hono/zod-openapi';

/** The consumer a route names. */
export const ConsumerParams = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'id', in: 'path' } }),
});
