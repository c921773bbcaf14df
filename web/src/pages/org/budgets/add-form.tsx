import { useState } from 'react';
import { $api, type Schemas } from '../../../api/client';
import { coverOf, periodOf } from '../../../ui/budget';
import { ActionForm, Field } from '../../../ui/form';
import { money } from '../../../ui/format';
import { Loadable } from '../../../ui/states';
import { limitOf, percentsOf, useRefreshBudgets } from './shared';

type Scope = Schemas['CreateBudget']['scope'];

const SCOPES: Record<Scope, string> = {
  org: 'The whole organisation',
  workspace: 'A workspace',
  user: 'A user',
  consumer: 'A consumer',
  routine: 'A routine',
};

/** Where the form starts: `?scope=workspace&scope_id=…` from a workspace's overview. */
export interface BudgetTarget {
  scope: Scope;
  scopeId?: string;
}

/** The organisation's workspaces, as a select filling `name` (the budget's `scope_id`, or the consumer's workspace). */
function WorkspaceSelect({ label, name, error, initial, onChange }: SelectProps & { label: string; onChange?: (id: string) => void }) {
  const workspaces = $api.useQuery('get', '/api/workspaces');
  return (
    <Loadable query={workspaces} label="workspaces" isEmpty={(data) => data.workspaces.length === 0} empty="No workspaces yet.">
      {(data) => (
        <Field label={label} name={name} error={error}>
          <select defaultValue={initial ?? ''} onChange={(event) => onChange?.(event.target.value)}>
            <option value="">Choose a workspace</option>
            {data.workspaces.map((workspace) => (
              <option key={workspace.id} value={workspace.id}>
                {workspace.name}
              </option>
            ))}
          </select>
        </Field>
      )}
    </Loadable>
  );
}

interface SelectProps {
  name: string;
  error: unknown;
  initial?: string;
}

function UserSelect({ error, initial }: { error: unknown; initial?: string }) {
  const users = $api.useQuery('get', '/api/org/users');
  return (
    <Loadable query={users} label="users">
      {(data) => (
        <Field label="User" name="scope_id" error={error} hint="What this user spends through any workspace, in the console or in chat.">
          <select defaultValue={initial ?? ''}>
            <option value="">Choose a user</option>
            {data.users.map((user) => (
              <option key={user.id} value={user.id}>
                {user.name} ({user.email})
              </option>
            ))}
          </select>
        </Field>
      )}
    </Loadable>
  );
}

/** A consumer is chosen among a workspace's: the workspace first, then its consumers. */
function ConsumerSelect({ error }: { error: unknown }) {
  const [workspaceId, setWorkspaceId] = useState('');
  const consumers = $api.useQuery(
    'get',
    '/api/workspaces/{id}/consumers',
    { params: { path: { id: workspaceId } } },
    { enabled: !!workspaceId },
  );
  return (
    <>
      <WorkspaceSelect label="Workspace of the consumer" name="consumer_workspace" error={undefined} onChange={setWorkspaceId} />
      {workspaceId && (
        <Loadable
          query={consumers}
          label="consumers"
          isEmpty={(data) => data.consumers.length === 0}
          empty="This workspace has no consumers yet: connect one on its Consumers page."
        >
          {(data) => (
            <Field
              label="Consumer"
              name="scope_id"
              error={error}
              hint="What this entry point spends (an API key, a messaging or team-chat channel)."
            >
              <select defaultValue="">
                <option value="">Choose a consumer</option>
                {data.consumers.map((consumer) => (
                  <option key={consumer.id} value={consumer.id}>
                    {consumer.type} consumer {consumer.id} ({consumer.status})
                  </option>
                ))}
              </select>
            </Field>
          )}
        </Loadable>
      )}
    </>
  );
}

/** A routine is chosen among a workspace's: the workspace first, then its routines. */
function RoutineSelect({ error }: { error: unknown }) {
  const [workspaceId, setWorkspaceId] = useState('');
  const routines = $api.useQuery(
    'get',
    '/api/workspaces/{id}/routines',
    { params: { path: { id: workspaceId } } },
    { enabled: !!workspaceId },
  );
  return (
    <>
      <WorkspaceSelect label="Workspace of the routine" name="routine_workspace" error={undefined} onChange={setWorkspaceId} />
      {workspaceId && (
        <Loadable
          query={routines}
          label="routines"
          isEmpty={(data) => data.routines.length === 0}
          empty="This workspace has no routines yet: add one on its Routines page."
        >
          {(data) => (
            <Field
              label="Routine"
              name="scope_id"
              error={error}
              hint="What this routine's runs spend (its other budgets, its workspace's and its person's, still apply)."
            >
              <select defaultValue="">
                <option value="">Choose a routine</option>
                {data.routines.map((routine) => (
                  <option key={routine.id} value={routine.id}>
                    {routine.name}
                  </option>
                ))}
              </select>
            </Field>
          )}
        </Loadable>
      )}
    </>
  );
}

/** The field naming what the budget covers, for each scope but the organisation. */
function ScopeTarget({ scope, error, initial }: { scope: Scope; error: unknown; initial?: string }) {
  if (scope === 'workspace') return <WorkspaceSelect label="Workspace" name="scope_id" error={error} initial={initial} />;
  if (scope === 'user') return <UserSelect error={error} initial={initial} />;
  if (scope === 'consumer') return <ConsumerSelect error={error} />;
  if (scope === 'routine') return <RoutineSelect error={error} />;
  return null;
}

function bodyOf(scope: Scope, values: Record<string, string>): Schemas['CreateBudget'] {
  return {
    scope,
    ...(scope === 'org' ? {} : { scope_id: values.scope_id ?? '' }),
    period: values.period === 'month' ? 'month' : 'day',
    limit_usd: limitOf(values.limit_usd),
    alert_percent: percentsOf(values.alert_percent),
  };
}

/** An admin adds a budget: what it covers, its period, its limit and when to alert. */
export function AddBudget({ target, onDone }: { target?: BudgetTarget; onDone: (message?: string) => void }) {
  const refresh = useRefreshBudgets();
  const [scope, setScope] = useState<Scope>(target?.scope ?? 'workspace');
  const create = $api.useMutation('post', '/api/org/budgets', {
    onSuccess: async ({ budget }) => {
      await refresh();
      onDone(`Added a budget of ${money(budget.limit_usd)} ${periodOf(budget)} for ${coverOf(budget)}.`);
    },
  });
  return (
    <ActionForm
      className="card form"
      label="Add a budget"
      heading={2}
      error={create.error}
      onSubmit={(values) => create.mutate({ body: bodyOf(scope, values) })}
      submit="Add budget"
      pending={create.isPending}
      busy="Adding"
      onCancel={() => onDone()}
    >
      <Field label="Covers" name="scope" error={create.error} hint="What the limit applies to: every query of it counts.">
        <select value={scope} onChange={(event) => setScope(event.target.value as Scope)}>
          {Object.entries(SCOPES).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <ScopeTarget scope={scope} error={create.error} initial={target?.scope === scope ? target.scopeId : undefined} />
      <Field
        label="Period"
        name="period"
        error={create.error}
        hint="Budgets count UTC days and months; each period starts again from zero."
      >
        <select defaultValue="day">
          <option value="day">Day</option>
          <option value="month">Month</option>
        </select>
      </Field>
      <Field label="Limit (USD)" name="limit_usd" error={create.error} hint="More than 0, in dollars and cents (0.50).">
        <input type="number" inputMode="decimal" min="0.01" step="0.01" required autoComplete="off" />
      </Field>
      <Field
        label="Alert at (% of the limit)"
        name="alert_percent"
        error={create.error}
        hint="Percentages from 1 to 100, separated by commas; empty for no alerts. Alerts go to the alerts_webhook_url setting and, for a workspace, its team-chat channels."
      >
        <input defaultValue="80, 100" autoComplete="off" />
      </Field>
    </ActionForm>
  );
}
