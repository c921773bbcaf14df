import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { GatewayCall } from '../../approvals/index.js';
import type { Deps } from '../../deps.js';
import { auditToolCall, toolBudgetSecondsOf, type ToolCallAudit } from '../../workspaces/index.js';
import { afterAnswer } from '../../http/sse.js';
import { approvalGate } from './approval.js';
import { grantElicitation, grantMessage, missingGrant } from './grants.js';
import type { Notify } from './progress.js';
import { screenArguments, screenResult } from './screen.js';
import type { PersonTools } from './tools.js';
import type { ClientTraits } from './transport.js';

/*
 * One `tools/call` of a person, on the path the agent's own calls take: the input guardrails on
 * the arguments, the person's own grant of a per-user connection, the approval of a tool that
 * needs one, the call within the workspace's per-call timeout and tool budget (its answer limited
 * by the MCP hub as any call's), the output guardrails on the answer; then one audit entry.
 */

/** Who calls, from where, and what their request read. */
export interface PersonCall {
  deps: Deps;
  person: { orgId: string; userId: string; userName: string; role: string; subject: string };
  /** The MCP client's name (its audit entries' `client`). */
  client: string;
  tools: PersonTools;
  traits: ClientTraits;
  /** The origin the request came to (links into the console, unless PUBLIC_BASE_URL says another). */
  origin: string;
}

/** What the call's handler was given: its progress, and the signal of its request going away. */
export interface CallExtra {
  notify: Notify | undefined;
  signal: AbortSignal;
}

const toolError = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** Runs one call of a workspace tool (or `search_tools`) and audits it. */
export async function callPersonTool(
  call: PersonCall,
  name: string,
  args: Record<string, unknown>,
  extra: CallExtra,
): Promise<CallToolResult> {
  const started = performance.now();
  const { deps, person, tools } = call;
  const tool = tools.tool(name);
  // The caller has its answer without waiting for the audit entry, which the process waits for before it ends (afterAnswer).
  const audit = async (outcome: ToolCallAudit['outcome'], error: string | null, approval?: ToolCallAudit['approval']) =>
    afterAnswer(auditing(outcome, error, approval), (failure) => deps.logger.error('auditing a tool call failed', { error: failure }));
  const auditing = (outcome: ToolCallAudit['outcome'], error: string | null, approval?: ToolCallAudit['approval']) =>
    auditToolCall(deps, {
      orgId: person.orgId,
      workspaceId: tools.context.workspace.id,
      userId: person.userId,
      userName: person.userName,
      client: call.client,
      tool: name,
      connection: tool?.offered.connectionName ?? null,
      outcome,
      durationMs: performance.now() - started,
      error,
      ...(approval ? { approval } : {}),
    });
  if (!tool && name === 'search_tools' && tools.search) {
    const found = await tools.search.run(args);
    await audit(found.isError ? 'error' : 'ok', found.isError ? found.text : null);
    return { content: [{ type: 'text', text: found.text }], isError: found.isError };
  }
  if (!tool) {
    // Not a tool this person may use here (none of that name, or denied by permissions or a guardrail): as if it did not exist.
    await audit('unknown_tool', `unknown tool: ${name}`);
    throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${name}`);
  }
  const { guardrails, workspace } = tools.context;
  const screened = screenArguments(guardrails, args);
  if ('refusal' in screened) {
    await audit('blocked', screened.refusal);
    return toolError(screened.refusal);
  }
  const connection = tool.named.connection;
  const grantUrl = await missingGrant(deps, connection, person);
  if (grantUrl) {
    await audit('needs_authorization', grantMessage(connection.name));
    if (call.traits.urlElicitation) throw grantElicitation(connection.name, grantUrl);
    return toolError(`${grantMessage(connection.name)}\n${grantUrl}`);
  }
  let approval: ToolCallAudit['approval'];
  if (tool.offered.needsApproval) {
    const asked: GatewayCall = {
      caller: callerOf(call),
      userId: person.userId,
      workspace,
      tool: name,
      connection: connection.name,
      input: screened.input,
    };
    const gate = await approvalGate(deps, { call: asked, notify: extra.notify, origin: call.origin, signal: extra.signal });
    if (!gate.run) {
      await audit(gate.outcome, gate.text, gate.approval);
      return toolError(gate.text);
    }
    approval = gate.approval;
  }
  const outcome = await tool.offered.run(screened.input, { timeoutMs: toolBudgetSecondsOf(workspace) * 1000 });
  const shown = screenResult(guardrails, outcome.text);
  const failed = outcome.isError || shown.withheldBy !== undefined;
  await audit(shown.withheldBy ? 'blocked' : outcome.isError ? 'error' : 'ok', failed ? shown.text : null, approval);
  return { content: [{ type: 'text', text: shown.text || '(no output)' }], isError: failed };
}

/** The person as the agent's caller: a signed-in user of the console (their role, their own conversations). */
export function callerOf(call: Pick<PersonCall, 'person'>) {
  const { person } = call;
  return {
    orgId: person.orgId,
    role: person.role,
    userName: person.userName,
    consumerType: 'api' as const,
    channel: null,
    owner: person.subject,
  };
}
