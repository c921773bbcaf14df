import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { runQuery } from '../query.js';
import { approvalsLink } from './approval.js';
import { callerOf, type PersonCall } from './call.js';
import { progressListener, type Notify } from './progress.js';

/*
 * `ask` at the gateway: the agent loop, as a coding agent's key has it, run as the person (their
 * role, their own conversations, their grants), so it answers with the tools they may use.
 */

const AskInput = z.object({
  question: z.string().min(1).max(32_000),
  session_id: z
    .string()
    .regex(/^[A-Za-z0-9._:@-]{1,128}$/)
    .optional(),
});

export const ASK_TOOL: Tool = {
  name: 'ask',
  description:
    "Ask the workspace's assistant a question; it answers using the workspace's tools and knowledge. Pass session_id back to continue the conversation.",
  inputSchema: {
    type: 'object',
    properties: {
      question: { type: 'string', minLength: 1, maxLength: 32_000, description: 'the question' },
      session_id: {
        type: 'string',
        pattern: '^[A-Za-z0-9._:@-]{1,128}$',
        description: 'the session_id of an earlier answer, to continue it',
      },
    },
    required: ['question'],
  },
  annotations: { readOnlyHint: false, openWorldHint: true },
};

/** Runs the agent for the person; a call waiting for approval is said with where it is decided. */
export async function askAsPerson(call: PersonCall, args: Record<string, unknown>, notify: Notify | undefined): Promise<CallToolResult> {
  const parsed = AskInput.safeParse(args);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`);
    return { content: [{ type: 'text', text: `Invalid arguments of ask: ${problems.join('; ')}` }], isError: true };
  }
  const { question, session_id } = parsed.data;
  const workspaceId = call.tools.context.workspace.id;
  const { response } = await runQuery(
    call.deps,
    callerOf(call),
    workspaceId,
    { query: question, ...(session_id ? { session_id } : {}) },
    notify ? progressListener(notify, () => performance.now()) : {},
  );
  const pending = response.pending_approval;
  const waiting = pending
    ? `The call to ${pending.tool} waits for approval until ${pending.expires_at} (approval ${pending.id}, decided in the console at ${approvalsLink(call.origin, workspaceId)}); the answer goes on in this conversation once it is decided.`
    : '';
  const answer = [response.answer, waiting].filter(Boolean).join('\n\n');
  const text = response.error ? `${answer ? `${answer}\n\n` : ''}Error: ${response.error}` : answer;
  return { content: [{ type: 'text', text: text || '(no answer)' }], structuredContent: { ...response }, isError: response.error !== null };
}
