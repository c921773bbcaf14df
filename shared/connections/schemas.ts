import { z } from '@hono/zod-openapi';
import { displayName } from '../http/schemas.js';

const transport = z.enum(['http', 'stdio'], { error: 'must be http or stdio' }).default('http');
const url = z.string().max(2048, 'must be at most 2048 characters').url('must be a URL');
const command = z.string().min(1).max(200, 'must be at most 200 characters');
const args = z.array(z.string().max(4096)).max(50, 'at most 50 arguments');

function requireTarget<T extends { transport: 'http' | 'stdio'; url?: string; command?: string }>(body: T, context: z.RefinementCtx) {
  if (body.transport === 'http' && !body.url)
    context.addIssue({ code: 'custom', path: ['url'], message: 'required for the http transport' });
  if (body.transport === 'stdio' && !body.command)
    context.addIssue({ code: 'custom', path: ['command'], message: 'required for the stdio transport' });
}

export const TestMcpBody = z
  .object({ transport, url: url.optional(), command: command.optional(), args: args.optional() })
  .superRefine(requireTarget)
  .openapi('TestMcpRequest');

export const TestMcpResponse = z
  .object({
    ok: z.boolean(),
    tools: z.number().int(),
    server: z.string(),
    toolNames: z.array(z.string()),
    error: z.string().optional().openapi({ description: 'why the server could not be reached (when ok is false)' }),
  })
  .openapi('TestMcpResponse');

export const CreateMcpBody = z
  .object({
    workspace_id: z.string().min(1).max(200),
    name: displayName(64),
    transport,
    url: url.optional(),
    command: command.optional(),
    args: args.optional(),
  })
  .superRefine(requireTarget)
  .openapi('CreateMcpConnectionRequest');
export type CreateMcpInput = z.infer<typeof CreateMcpBody>;

export const CreateMcpResponse = z
  .object({ status: z.literal('saved'), message: z.string(), tools: z.number().int(), id: z.string() })
  .openapi('CreateMcpConnectionResponse');

export const ConnectionParams = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'conn_0mwr8k9x0000a1b2c3d4e5f60718' }),
});

export const StdioCatalogueResponse = z
  .object({
    servers: z.array(
      z.object({
        name: z.string(),
        command: z.string(),
        args: z.array(z.string()),
        env: z.array(z.string()).openapi({ description: 'names of the environment variables a connection may set' }),
      }),
    ),
  })
  .openapi('StdioCatalogueResponse');
