import { type RefObject, useRef, useState } from 'react';
import { $api, type Schemas, useRefresh } from '../../../api/client';
import { ActionForm, Field } from '../../../ui/form';
import { Section } from '../../../ui/page';
import { Loadable } from '../../../ui/states';

type Provider = Schemas['ModelProvider'];
type ModelKeyStatus = Schemas['ModelKeyStatus'];

/** The providers the service supports (`ai_provider`), as the select offers them. */
const PROVIDERS: { value: Provider; label: string }[] = [
  { value: 'anthropic', label: 'Anthropic (API key)' },
  { value: 'bedrock', label: "Amazon Bedrock (the service's AWS account)" },
];

/** The settings the model form sets: the free-text editor leaves them to it. */
export const MODEL_SETTING_KEYS = ['ai_provider', 'ai_api_key'];

/** Whose key answers now, in words; `masked` is the organisation's key as listed (`••••••••` and its last 4). */
function keyState(status: ModelKeyStatus, masked: string | undefined): string {
  if (status.source === 'organisation') return `A key is set${masked ? ` (${masked})` : ''}. Type a new one to replace it.`;
  if (status.source === 'deployment') {
    return status.provider === 'bedrock'
      ? "Bedrock answers on the service's AWS account."
      : "No key of the organisation's own: the service's key answers for now. Type one to use your own.";
  }
  return 'No key is set: questions cannot be answered until one is.';
}

interface ModelFormProps {
  status: ModelKeyStatus;
  /** The provider select, focused by the settings table's "Change" of a model setting. */
  providerInput: RefObject<HTMLSelectElement | null>;
}

/**
 * The provider and its key, saved together only once a one-token call with them answers
 * (`POST /api/org/settings/model`): the provider's refusal shows under the field, and nothing is
 * saved. The key field is never filled with the key; left empty, the key already set is tested.
 */
function ModelForm({ status, providerInput }: ModelFormProps) {
  const refresh = useRefresh('/api/org/model', '/api/org/settings');
  const settings = $api.useQuery('get', '/api/org/settings');
  const [provider, setProvider] = useState<Provider>(status.provider);
  const [saved, setSaved] = useState('');
  const keyInput = useRef<HTMLInputElement>(null);
  const save = $api.useMutation('post', '/api/org/settings/model', {
    onSuccess: async (_data, variables) => {
      setSaved(`Saved: ${variables.body.api_key ? 'the key' : 'the provider'} answered a test call.`);
      if (keyInput.current) keyInput.current.value = '';
      // The form stays on screen: forget the key it sent now.
      save.reset();
      await refresh();
    },
  });
  const state = keyState(status, settings.data?.settings.ai_api_key);
  return (
    <ActionForm
      label="Model"
      error={save.error}
      onSubmit={({ api_key: typed = '' }) => {
        setSaved('');
        const apiKey = typed.trim();
        save.mutate({ body: { provider, ...(provider === 'anthropic' && apiKey ? { api_key: apiKey } : {}) } });
      }}
      submit="Test and save"
      busy="Testing the key"
      pending={save.isPending}
      actionsAfter={<span role="status">{saved}</span>}
    >
      <Field label="Provider" name="provider" error={save.error} hint={provider === 'bedrock' ? state : undefined}>
        <select
          ref={providerInput}
          value={provider}
          onChange={(event) => {
            setProvider(event.target.value === 'bedrock' ? 'bedrock' : 'anthropic');
            save.reset();
          }}
        >
          {PROVIDERS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </Field>
      {provider === 'anthropic' && (
        <Field label="API key" name="api_key" error={save.error} hint={state}>
          <input ref={keyInput} type="password" autoComplete="new-password" spellCheck={false} />
        </Field>
      )}
    </ActionForm>
  );
}

/** The organisation's model: which provider answers its questions, with which key. */
export function ModelSettings({ providerInput }: { providerInput: RefObject<HTMLSelectElement | null> }) {
  const status = $api.useQuery('get', '/api/org/model');
  return (
    <Section title="Model">
      <p className="hint">
        The provider that answers your workspaces' questions, and its API key. Saving tests them with a one-token call first: a key the
        provider refuses is not saved. The key is stored encrypted and never shown again.
      </p>
      <Loadable query={status} label="the model settings">
        {(data) => <ModelForm status={data} providerInput={providerInput} />}
      </Loadable>
    </Section>
  );
}
