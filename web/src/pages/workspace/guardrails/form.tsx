import { useState } from 'react';
import { $api, type Schemas, useRefresh } from '../../../api/client';
import { ActionForm, Field } from '../../../ui/form';

type Request = Schemas['GuardrailRequest'];
type Preset = NonNullable<Request['preset']>;
type Kind = NonNullable<Request['type']>;
type AppliesTo = NonNullable<Request['applies_to']>;

const PRESETS: Record<Preset, string> = {
  email: 'Email addresses',
  card_number: 'Card numbers',
  phone_number: 'Phone numbers',
};

const KINDS: Record<Kind, string> = {
  block_pattern: 'Block messages that match a pattern',
  redact_pattern: 'Redact what matches a pattern',
  block_tool: 'Block tools whose name matches',
};

/** Guardrails show in the compliance list and, counted, in the workspace's detail and dashboard. */
export const useRefreshGuardrails = () =>
  useRefresh('/api/workspaces/{id}/compliance', '/api/workspaces/{id}', '/api/workspaces/{id}/dashboard');

function AppliesToField({ error, initial = 'both' }: { error: unknown; initial?: string }) {
  return (
    <Field label="Applies to" name="applies_to" error={error}>
      <select defaultValue={initial === 'tools' ? 'both' : initial}>
        <option value="both">Questions and answers</option>
        <option value="input">Questions only</option>
        <option value="output">Answers only</option>
      </select>
    </Field>
  );
}

function EnabledField({ error, initial = true }: { error: unknown; initial?: boolean }) {
  return (
    <Field label="Enabled" name="enabled" error={error} hint="A disabled guardrail is kept but not applied.">
      <input type="checkbox" defaultChecked={initial} />
    </Field>
  );
}

/** Name, kind and pattern of a guardrail written by hand (new, or being changed). */
function OwnFields({ error, current }: { error: unknown; current?: Schemas['Guardrail'] }) {
  const [kind, setKind] = useState<Kind>((current?.type as Kind | undefined) ?? 'block_pattern');
  return (
    <>
      <Field label="Name" name="name" error={error}>
        <input defaultValue={current?.name} />
      </Field>
      <Field label="Type" name="type" error={error}>
        <select value={kind} onChange={(event) => setKind(event.target.value as Kind)}>
          {Object.entries(KINDS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <Field
        label="Pattern"
        name="pattern"
        error={error}
        hint={kind === 'block_tool' ? 'A tool name; * matches any run of characters (orders_*).' : 'A regular expression.'}
      >
        <input defaultValue={current?.pattern} spellCheck={false} className="wc-mono" />
      </Field>
      {kind !== 'block_tool' && <AppliesToField error={error} initial={current?.applies_to} />}
    </>
  );
}

/** The body from the form: only what was filled in, the checkbox as a boolean. */
function requestOf(values: Record<string, string>): Request {
  const body: Request = { enabled: values.enabled === 'on' };
  if (values.preset) body.preset = values.preset as Preset;
  if (values.name?.trim()) body.name = values.name.trim();
  if (values.type) body.type = values.type as Kind;
  if (values.pattern) body.pattern = values.pattern;
  if (values.action) body.action = values.action as Request['action'];
  if (values.applies_to && values.type !== 'block_tool') body.applies_to = values.applies_to as AppliesTo;
  return body;
}

/** A preset (email, card number, phone number) or a guardrail of one's own. */
export function AddGuardrail({ workspaceId, onDone }: { workspaceId: string; onDone: () => void }) {
  const refresh = useRefreshGuardrails();
  const [preset, setPreset] = useState('');
  const create = $api.useMutation('post', '/api/workspaces/{id}/guardrails', {
    onSuccess: async () => {
      await refresh();
      onDone();
    },
  });
  return (
    <ActionForm
      className="card form wc-form"
      label="Add a guardrail"
      heading={2}
      error={create.error}
      onSubmit={(values) => create.mutate({ params: { path: { id: workspaceId } }, body: requestOf(values) })}
      submit="Add guardrail"
      pending={create.isPending}
      busy="Adding"
      onCancel={onDone}
    >
      <Field label="Preset" name="preset" error={create.error} hint="A ready-made pattern, or none to write your own.">
        <select value={preset} onChange={(event) => setPreset(event.target.value)}>
          <option value="">None: my own pattern</option>
          {Object.entries(PRESETS).map(([value, label]) => (
            <option key={value} value={value}>
              {label} ({value})
            </option>
          ))}
        </select>
      </Field>
      {preset ? (
        <>
          <Field label="Action" name="action" error={create.error}>
            <select defaultValue="redact">
              <option value="redact">Redact the match</option>
              <option value="block">Block the message</option>
            </select>
          </Field>
          <AppliesToField error={create.error} />
        </>
      ) : (
        <OwnFields error={create.error} />
      )}
      <EnabledField error={create.error} />
    </ActionForm>
  );
}

export function EditGuardrail({
  workspaceId,
  guardrail,
  onDone,
}: {
  workspaceId: string;
  guardrail: Schemas['Guardrail'];
  onDone: () => void;
}) {
  const refresh = useRefreshGuardrails();
  const update = $api.useMutation('put', '/api/workspaces/{id}/guardrails/{gid}', {
    onSuccess: async () => {
      await refresh();
      onDone();
    },
  });
  return (
    <ActionForm
      className="card form wc-form"
      label={`Edit guardrail ${guardrail.name}`}
      heading={2}
      error={update.error}
      onSubmit={(values) => update.mutate({ params: { path: { id: workspaceId, gid: guardrail.id } }, body: requestOf(values) })}
      submit="Save guardrail"
      pending={update.isPending}
      onCancel={onDone}
    >
      <OwnFields error={update.error} current={guardrail} />
      <EnabledField error={update.error} initial={guardrail.enabled} />
    </ActionForm>
  );
}
