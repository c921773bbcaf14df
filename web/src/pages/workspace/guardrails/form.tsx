import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { $api, type Schemas } from '../../../api/client';
import { Field, FormError, formValues, Submit } from '../../../ui/form';

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
export function useRefreshGuardrails(): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all(
      ['/api/workspaces/{id}/compliance', '/api/workspaces/{id}', '/api/workspaces/{id}/dashboard'].map((path) =>
        queryClient.invalidateQueries({ queryKey: ['get', path] }),
      ),
    );
  };
}

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
    <form
      className="card form wc-form"
      aria-label="Add a guardrail"
      noValidate
      onSubmit={(event) => create.mutate({ params: { path: { id: workspaceId } }, body: requestOf(formValues(event)) })}
    >
      <h2>Add a guardrail</h2>
      <FormError error={create.error} />
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
      <div className="actions">
        <Submit pending={create.isPending} busy="Adding">
          Add guardrail
        </Submit>
        <button type="button" className="button secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
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
  const form = useRef<HTMLFormElement>(null);
  // The form opens away from the button that opened it: take the reader there.
  useEffect(() => form.current?.querySelector('input')?.focus(), []);
  const update = $api.useMutation('put', '/api/workspaces/{id}/guardrails/{gid}', {
    onSuccess: async () => {
      await refresh();
      onDone();
    },
  });
  return (
    <form
      ref={form}
      className="card form wc-form"
      aria-label={`Edit guardrail ${guardrail.name}`}
      noValidate
      onSubmit={(event) => update.mutate({ params: { path: { id: workspaceId, gid: guardrail.id } }, body: requestOf(formValues(event)) })}
    >
      <h2>Edit guardrail {guardrail.name}</h2>
      <FormError error={update.error} />
      <OwnFields error={update.error} current={guardrail} />
      <EnabledField error={update.error} initial={guardrail.enabled} />
      <div className="actions">
        <Submit pending={update.isPending}>Save guardrail</Submit>
        <button type="button" className="button secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
