import { z } from '@hono/zod-openapi';
import { displayName } from '../http/schemas.js';

const transport = z.enum(['http', 'stdio'], { error: 'must be http or stdio' }).default('http');
const url = z.string().max(2048, 'must be at most 2048 characters').url('must be a URL');
const command = z.string().min(1).max(200, 'must be at most 200 characters');
const args = z.array(z.string().max(4096)).max(50, 'at most 50 arguments');

const headerValue = z
  .string()
  .max(4096, 'must be at most 4096 characters')
  .regex(/^[^\r\n\0]*$/, 'must not contain line breaks or NUL');
const headers = z
  .record(z.string().max(64, 'header names are at most 64 characters'), headerValue)
  .refine((value) => Object.keys(value).length <= 20, 'at most 20 headers')
  .openapi({ description: 'http only: headers sent with every request to the server (secrets: stored encrypted, never shown)' });
const env = z
  .record(
    z.string().max(128),
    z
      .string()
      .max(4096, 'must be at most 4096 characters')
      .regex(/^[^\0]*$/, 'must not contain NUL'),
  )
  .refine((value) => Object.keys(value).length <= 20, 'at most 20 variables')
  .openapi({ description: 'stdio only: environment variables the catalogue entry declares (secrets: stored encrypted, never shown)' });

// Only when absent: an empty one already has its own message ("must not be empty"), said once.
function requireTarget<T extends { transport: 'http' | 'stdio'; url?: string; command?: string }>(body: T, context: z.RefinementCtx) {
  if (body.transport === 'http' && body.url === undefined)
    context.addIssue({ code: 'custom', path: ['url'], message: 'required for the http transport' });
  if (body.transport === 'stdio' && body.command === undefined)
    context.addIssue({ code: 'custom', path: ['command'], message: 'required for the stdio transport' });
}

export const TestMcpBody = z
  .object({
    transport,
    url: url.optional(),
    command: command.optional(),
    args: args.optional(),
    headers: headers.optional(),
    env: env.optional(),
  })
  .superRefine(requireTarget)
  .openapi('TestMcpRequest');
export type TestMcpInput = z.infer<typeof TestMcpBody>;

/** Why a tool list was cut to the tool limits (docs/connections.md); left out when every tool was kept whole. */
export const ToolsTruncatedSchema = z.string().optional().openapi({
  description:
    'why tools were dropped (past the tools kept per connection or per workspace, an input schema too large, a bad name) or descriptions cut; left out when every tool was kept whole',
});

/** `tools_truncated` of an answer: the note, or nothing when there is none. */
export const truncatedField = (note: string | null | undefined) => (note ? { tools_truncated: note } : {});

export const TestMcpResponse = z
  .object({
    ok: z.boolean(),
    tools: z.number().int(),
    server: z.string(),
    toolNames: z.array(z.string()),
    tools_truncated: ToolsTruncatedSchema,
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
    headers: headers.optional(),
    env: env.optional(),
    auth: z.enum(['none', 'oauth'], { error: 'must be none or oauth' }).optional().openapi({
      description: 'oauth (http only): the server is reached with an OAuth 2.1 grant an admin makes (the answer has its authorization_url)',
    }),
    oauth_client_id: z
      .string()
      .min(1)
      .max(512)
      .optional()
      .openapi({ description: 'a client registered by hand; else dynamic registration' }),
    oauth_client_secret: z.string().min(1).max(2048).optional(),
    credential: z.enum(['workspace', 'per_user'], { error: 'must be workspace or per_user' }).optional().openapi({
      description: 'oauth: one grant an admin makes for every caller (workspace, the default), or each person grants their own (per_user)',
    }),
  })
  .superRefine(requireTarget)
  .superRefine((body, context) => {
    if (body.auth === 'oauth' && body.transport !== 'http')
      context.addIssue({ code: 'custom', path: ['auth'], message: 'oauth is for http connections' });
    if (body.auth !== 'oauth' && (body.oauth_client_id || body.oauth_client_secret)) {
      context.addIssue({ code: 'custom', path: ['oauth_client_id'], message: 'only with "auth": "oauth"' });
    }
    if (body.auth !== 'oauth' && body.credential)
      context.addIssue({ code: 'custom', path: ['credential'], message: 'only with "auth": "oauth"' });
  })
  .openapi('CreateMcpConnectionRequest');
export type CreateMcpInput = z.infer<typeof CreateMcpBody>;

export const UpdateMcpBody = z
  .object({ name: displayName(64).optional(), url: url.optional(), headers: headers.optional(), env: env.optional() })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'give at least one of name, url, headers, env')
  .openapi('UpdateMcpConnectionRequest');
export type UpdateMcpInput = z.infer<typeof UpdateMcpBody>;

export const CreateMcpResponse = z
  .object({
    status: z.enum(['saved', 'authorization_required']),
    message: z.string(),
    tools: z.number().int(),
    id: z.string(),
    tools_truncated: ToolsTruncatedSchema,
    authorization_url: z
      .string()
      .optional()
      .openapi({ description: 'oauth: where an admin grants access (then the connection lists its tools)' }),
  })
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
