import { useState } from 'react';
import { $api } from '../../../api/client';
import { Section } from '../../../ui/page';
import { RotateSecret } from './rotate-secret';
import { type Saved, EditRoutine } from './routine-form';
import { RunHistory } from './runs';
import { hookUrlOf, type Routine } from './shared';
import { CopyButton } from '../../../ui/copy';

/** Who a routine runs as, by the organisation's user list. */
function RunAs({ runAs }: { runAs: string | null }) {
  const users = $api.useQuery('get', '/api/org/users');
  if (!runAs) return <>the workspace (a member's permissions)</>;
  const user = users.data?.users.find((candidate) => candidate.id === runAs);
  return <>{user ? `${user.name} (${user.email})` : runAs}</>;
}

/** Where a routine's answer goes besides its conversation. */
function deliveryText(routine: Routine): string {
  const places = [
    'its conversation',
    ...(routine.deliver_to.channel ? ["the workspace's team-chat channels"] : []),
    ...(routine.deliver_to.webhook_url ? [routine.deliver_to.webhook_url] : []),
  ];
  return places.join(', ');
}

interface RoutineDetailProps {
  workspaceId: string;
  routine: Routine;
  onSaved: (saved: Saved) => void;
  /** A webhook routine's secret was rotated: the new one is shown once. */
  onRotated: (saved: Required<Saved>, keptMinutes: number) => void;
}

/** One routine: its prompt, where its answers go, who it runs as, its webhook (Rotate secret), Edit, and its runs. */
export function RoutineDetail({ workspaceId, routine, onSaved, onRotated }: RoutineDetailProps) {
  const [editing, setEditing] = useState(false);
  return (
    <Section
      title={routine.name}
      actions={
        !editing && (
          <button type="button" className="button secondary" onClick={() => setEditing(true)}>
            Edit<span className="visually-hidden"> {routine.name}</span>
          </button>
        )
      }
    >
      {editing ? (
        <EditRoutine
          key={routine.updated_at}
          workspaceId={workspaceId}
          routine={routine}
          onCancel={() => setEditing(false)}
          onSaved={(saved) => {
            setEditing(false);
            onSaved(saved);
          }}
        />
      ) : (
        <dl className="rt-about">
          <dt>Prompt</dt>
          <dd className="wc-prose">{routine.prompt}</dd>
          <dt>Answers go to</dt>
          <dd>{deliveryText(routine)}</dd>
          <dt>Runs as</dt>
          <dd>
            <RunAs runAs={routine.run_as} />
          </dd>
          {routine.hook_path && (
            <>
              <dt>Webhook URL</dt>
              <dd className="secret-row rt-url">
                <code>{hookUrlOf(routine.hook_path)}</code>
                <CopyButton value={hookUrlOf(routine.hook_path)} what="the webhook URL" />
              </dd>
              <dt>Signing secret</dt>
              <dd>
                <span className="hint">Shown once when made. </span>
                <RotateSecret workspaceId={workspaceId} routine={routine} onRotated={onRotated} />
              </dd>
            </>
          )}
        </dl>
      )}
      <h3>Runs</h3>
      <RunHistory workspaceId={workspaceId} routine={routine} />
    </Section>
  );
}
