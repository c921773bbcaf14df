import type { Schemas } from '../../../api/client';
import { duration } from '../../../ui/format';
import { ToolCallDetails } from '../../../ui/tool-call';

/** The calls of an answer, each opening to show its arguments and result. */
export function ToolCalls({ calls }: { calls: Schemas['ToolCall'][] }) {
  return (
    <ul className="chat-tools" aria-label="Tool calls">
      {calls.map((call) => (
        <li key={call.id} className={`tool-line chat-tool-${call.is_error ? 'error' : 'done'}`}>
          <ToolCallDetails call={call}>
            <span aria-hidden="true">⚙ </span>
            <code>{call.name}</code>
            {call.connection ? ` on ${call.connection}` : ''} — {call.is_error ? 'error after' : 'done in'} {duration(call.duration_ms)}
          </ToolCallDetails>
        </li>
      ))}
    </ul>
  );
}
