import type { ReactNode } from 'react';
import type { Schemas } from '../../../api/client';
import { Loading } from '../../../ui/states';

function Outcome({ pending, result }: { pending: boolean; result: Schemas['TestMcpResponse'] | undefined }): ReactNode {
  if (pending) return <Loading label="Testing the connection" />;
  if (!result) return null;
  if (!result.ok)
    return (
      <p className="wc-test wc-test-failed">
        <strong>Not reached.</strong> {result.error ?? 'The server could not be reached.'}
      </p>
    );
  return (
    <div className="wc-test wc-test-ok">
      <p>
        <strong>Reached {result.server || 'the server'}</strong>: {result.tools} tool{result.tools === 1 ? '' : 's'}.
      </p>
      {result.toolNames.length > 0 && (
        <ul className="wc-tool-names" aria-label="Tools found">
          {result.toolNames.map((name) => (
            <li key={name}>
              <code>{name}</code>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What "Test connection" found: the server's tools, or why it could not be reached (a live region, so it is announced). */
export function TestResult(props: { pending: boolean; result: Schemas['TestMcpResponse'] | undefined }) {
  return (
    <div role="status" className="wc-test-area">
      <Outcome {...props} />
    </div>
  );
}
