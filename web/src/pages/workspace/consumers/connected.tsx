import { SecretOnce } from '../../../ui/secret';
import type { Connected } from './connect-form';

/** How to use a new consumer's key: a command or a URL with the key itself, shown this once like the key above. */
function usage(connected: Connected, workspaceId: string): { text: string; code?: string } {
  const origin = window.location.origin;
  const key = connected.api_key ?? '<key>';
  const bearer = `-H "Authorization: Bearer ${key}" -H "content-type: application/json"`;
  switch (connected.type) {
    case 'api':
      return {
        text: 'Ask the workspace with the key:',
        code: `curl ${bearer} -d '{"query":"Hello"}' ${origin}/api/workspaces/${workspaceId}/query`,
      };
    case 'messaging':
      return {
        text: 'Post each message of a thread with the key:',
        code: `curl ${bearer} -d '{"user":"Lin Chen","text":"Hello","thread_id":"thread-1"}' ${origin}/api/consumers/${connected.id}/messages`,
      };
    case 'coding-agent':
      return {
        text: `Add an MCP server (streamable HTTP) to your coding agent at this URL, with the header "Authorization: Bearer ${key}":`,
        code: `${origin}/api/workspaces/${workspaceId}/mcp`,
      };
    default:
      return { text: 'Invite the bot to each bound channel and mention it there: it answers in the thread.' };
  }
}

/** What connecting answered: the message, the key once, and how to use it. */
export function ConnectedNote({ connected, workspaceId, onDone }: { connected: Connected; workspaceId: string; onDone: () => void }) {
  const how = usage(connected, workspaceId);
  return (
    <section className="card access-connected" aria-label="Consumer connected">
      <h2>Consumer connected</h2>
      <p>{connected.message}</p>
      {connected.api_key && <SecretOnce label="API key" value={connected.api_key} />}
      <p className="access-usage">
        <strong>How to use it:</strong> {how.text}
      </p>
      {how.code && <pre>{how.code}</pre>}
      <div className="actions">
        <button type="button" className="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
