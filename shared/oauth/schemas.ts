import { z } from '@hono/zod-openapi';
import { isoTimestamp } from '../http/schemas.js';

export const InteractionParams = z.object({ uid: z.string().min(1).max(128) });

export const ConsentRequestSchema = z
  .object({
    client: z.object({
      id: z.string(),
      name: z.string().openapi({ description: "A verified client's name carries its domain: (claude.ai)" }),
      verified: z.boolean().openapi({ description: 'true: identified by its metadata document (CIMD); false: self-declared (registered)' }),
      redirect_host: z.string(),
    }),
    workspace: z.object({ id: z.string(), name: z.string() }),
    expires_at: isoTimestamp,
  })
  .openapi('ConsentRequest');

export const DecisionBody = z.object({ decision: z.enum(['allow', 'deny']) }).strict();

export const DecisionSchema = z
  .object({
    redirect_to: z
      .string()
      .openapi({ description: 'where the browser goes next: the authorization server, which sends it back to the client' }),
  })
  .openapi('ConsentDecision');

export const ClientParams = z.object({ id: z.string().min(1).max(64) });

const ConnectedClientSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    verified: z.boolean(),
    redirect_host: z.string(),
    workspaces: z.array(z.string()),
    created_at: isoTimestamp,
    last_used_at: isoTimestamp.nullable(),
    user_id: z.string(),
  })
  .openapi('ConnectedClient');

export const ConnectedClientsSchema = z.object({ clients: z.array(ConnectedClientSchema) });
