import type { ReactNode } from 'react';

/** What a tool call was given and what it answered, as the API shows them (cut short, screened). */
export interface ToolCallText {
  /** The arguments as JSON text. */
  arguments?: string | null;
  result?: string | null;
}

/** JSON arguments indented for reading; text that is not whole JSON (cut short) as it is. */
function readable(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * A tool call's line that opens to show its arguments and result. `children` is the line; a call
 * with neither (one still running, or stored before calls were kept) shows just the line.
 */
export function ToolCallDetails({ call, children }: { call: ToolCallText; children: ReactNode }) {
  if (call.arguments == null && call.result == null) return <>{children}</>;
  return (
    <details className="tool-call">
      <summary>{children}</summary>
      <div className="tool-call-body">
        {call.arguments != null && (
          <>
            <p className="tool-call-label">Arguments</p>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: long text scrolls, so it must be reachable by keyboard. */}
            <pre tabIndex={0}>{readable(call.arguments)}</pre>
          </>
        )}
        {call.result != null && (
          <>
            <p className="tool-call-label">Result</p>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: long text scrolls, so it must be reachable by keyboard. */}
            <pre tabIndex={0}>{call.result || '(no output)'}</pre>
          </>
        )}
      </div>
    </details>
  );
}
