import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { $api, type Schemas, useRefresh } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { ConfirmButton } from '../../ui/confirm';
import { ActionForm, Field } from '../../ui/form';
import { PageHeader, Section } from '../../ui/page';
import { Empty, Loadable, RowError } from '../../ui/states';
import { DataTable } from '../../ui/table';
import { MODEL_SETTING_KEYS, ModelSettings } from './settings/model-form';

/** The service's rule (docs/api-decisions.md): these keys hold secrets, listed masked, typed unseen. */
const isSecretKey = (key: string) => /_(key|token|secret|password)$/.test(key);

/** The keys the service reads, and what each is for. */
const KNOWN: Record<string, string> = {
  ai_api_key: "The model provider's API key for this organisation's queries: set in the Model form, which tests it first.",
  ai_provider: 'anthropic (the default) or bedrock: set in the Model form.',
  chat_bot_token: 'The team-chat bot token (xoxb-…); removing it disconnects the bot.',
  chat_app_token: 'The team-chat app-level token for socket mode (xapp-…); removing it disconnects the bot.',
  alerts_webhook_url: 'Where budget alerts are POSTed (an http or https URL) when a budget crosses one of its alert thresholds.',
};

function OrgName() {
  const refresh = useRefresh('/api/org');
  const org = $api.useQuery('get', '/api/org');
  const [saved, setSaved] = useState('');
  const rename = $api.useMutation('put', '/api/org', {
    onSuccess: async (data) => {
      setSaved(`Renamed the organisation to ${data.org.name}.`);
      await refresh();
    },
  });
  return (
    <Section title="Organisation name">
      <Loadable query={org} label="the organisation">
        {(data) => (
          <ActionForm
            error={rename.error}
            onSubmit={({ name = '' }) => {
              setSaved('');
              rename.mutate({ body: { name } });
            }}
            submit="Save name"
            pending={rename.isPending}
            actionsAfter={<span role="status">{saved}</span>}
          >
            <Field label="Name" name="name" error={rename.error}>
              <input defaultValue={data.org.name} key={data.org.name} required autoComplete="organization" />
            </Field>
          </ActionForm>
        )}
      </Loadable>
    </Section>
  );
}

/** Sets one setting; `key` is chosen here or by a row's "Change" button (or `?key=` from another page). */
function SetSetting({ settingKey, setSettingKey, valueInput }: SetSettingProps) {
  const refresh = useRefresh('/api/org/settings');
  const [missing, setMissing] = useState(false);
  const [saved, setSaved] = useState('');
  const save = $api.useMutation('put', '/api/org/settings/{key}', {
    onSuccess: async (_data, variables) => {
      setSaved(`Saved ${variables.params.path.key}.`);
      setSettingKey('');
      if (valueInput.current) valueInput.current.value = '';
      // The form stays on screen: forget the value it sent (maybe a secret) now.
      save.reset();
      await refresh();
    },
  });
  const [modelKey, setModelKey] = useState(false);
  const error = missing
    ? { error: "Enter the setting's key.", details: [{ path: 'key', message: 'enter a key' }] }
    : modelKey
      ? {
          error: 'The model is set in the Model form.',
          details: [{ path: 'key', message: 'set in the Model form above, which tests the key first' }],
        }
      : save.error;
  const secret = isSecretKey(settingKey);
  return (
    <ActionForm
      label="Set a setting"
      error={error}
      onSubmit={({ value = '' }) => {
        const key = settingKey.trim();
        const model = MODEL_SETTING_KEYS.includes(key);
        setSaved('');
        setMissing(!key);
        setModelKey(model);
        if (key && !model) save.mutate({ params: { path: { key } }, body: { value } });
      }}
      submit="Save setting"
      pending={save.isPending}
      actionsAfter={<span role="status">{saved}</span>}
    >
      <Field
        label="Key"
        name="key"
        error={error}
        hint="Lower case letters, digits and _ (chat_bot_token, chat_app_token, alerts_webhook_url…). The model is set in the Model form."
      >
        <input value={settingKey} onChange={(event) => setSettingKey(event.target.value)} list="setting-keys" autoComplete="off" required />
      </Field>
      <datalist id="setting-keys">
        {Object.keys(KNOWN)
          .filter((key) => !MODEL_SETTING_KEYS.includes(key))
          .map((key) => (
            <option key={key} value={key} />
          ))}
      </datalist>
      <Field
        label="Value"
        name="value"
        error={error}
        hint={secret ? 'A secret: stored encrypted and listed masked; it is never shown again in full.' : (KNOWN[settingKey] ?? undefined)}
      >
        <input ref={valueInput} type={secret ? 'password' : 'text'} autoComplete={secret ? 'new-password' : 'off'} required />
      </Field>
    </ActionForm>
  );
}

interface SetSettingProps {
  settingKey: string;
  setSettingKey: (key: string) => void;
  valueInput: React.RefObject<HTMLInputElement | null>;
}

function RemoveSetting({ settingKey }: { settingKey: string }) {
  const refresh = useRefresh('/api/org/settings');
  const remove = $api.useMutation('delete', '/api/org/settings/{key}', { onSuccess: refresh });
  return (
    <>
      <ConfirmButton
        title={`Remove the setting ${settingKey}?`}
        confirmLabel="Remove setting"
        disabled={remove.isPending}
        description={
          <p>
            {KNOWN[settingKey] ? `${settingKey}: ${KNOWN[settingKey]} ` : ''}The value is deleted; setting it again needs the value again.
          </p>
        }
        onConfirm={() => remove.mutate({ params: { path: { key: settingKey } } })}
      >
        Remove<span className="visually-hidden"> setting {settingKey}</span>
      </ConfirmButton>
      <RowError error={remove.error} />
    </>
  );
}

function OrgSettings() {
  const [searchParams] = useSearchParams();
  const [settingKey, setSettingKey] = useState(searchParams.get('key') ?? '');
  const valueInput = useRef<HTMLInputElement>(null);
  const providerInput = useRef<HTMLSelectElement>(null);
  const settings = $api.useQuery('get', '/api/org/settings');
  const change = (key: string) => {
    // The model's settings are changed in its form, which tests the key before saving it.
    if (MODEL_SETTING_KEYS.includes(key)) return providerInput.current?.focus();
    setSettingKey(key);
    valueInput.current?.focus();
  };
  return (
    <>
      <ModelSettings providerInput={providerInput} />
      <Section title="Settings">
        <p className="hint">
          Every setting of the organisation: team-chat credentials, where budget alerts go, and the model's (set in the Model form above).
          Secrets arrive masked and stay masked.
        </p>
        <Loadable query={settings} label="settings" isEmpty={(data) => Object.keys(data.configured).length === 0}>
          {(data) => (
            <DataTable
              caption="Settings of the organisation"
              columns={[
                {
                  header: 'Key',
                  cell: (key) => (
                    <>
                      <code>{key}</code>
                      {KNOWN[key] && <div className="row-meta">{KNOWN[key]}</div>}
                    </>
                  ),
                },
                { header: 'Value', cell: (key) => <SettingValue settingKey={key} settings={data} /> },
                {
                  header: 'Actions',
                  cell: (key) => (
                    <div className="actions row-actions">
                      <button type="button" className="button small secondary" onClick={() => change(key)}>
                        {data.configured[key] ? 'Change' : 'Set'}
                        <span className="visually-hidden"> setting {key}</span>
                      </button>
                      {data.configured[key] && <RemoveSetting settingKey={key} />}
                    </div>
                  ),
                },
              ]}
              rows={[...new Set([...Object.keys(data.configured), ...Object.keys(data.settings)])].sort()}
              rowKey={(key) => key}
            />
          )}
        </Loadable>
      </Section>
      <Section title="Set a setting">
        <SetSetting settingKey={settingKey} setSettingKey={setSettingKey} valueInput={valueInput} />
      </Section>
    </>
  );
}

/** The organisation's name and settings (admins only, as the API). */
/** A setting's value as listed (secrets masked); an unset `ai_api_key` the service's own key stands in for says so. */
function SettingValue({ settingKey, settings }: { settingKey: string; settings: Schemas['Settings'] }) {
  if (settings.configured[settingKey]) return <code>{settings.settings[settingKey]}</code>;
  if (settingKey === 'ai_api_key' && settings.service_model_key) return <span className="hint">Using the service's key</span>;
  return <span className="hint">Not set</span>;
}

export default function OrgSettingsPage() {
  const isAdmin = useIsAdmin();
  return (
    <>
      <PageHeader title="Settings">
        <p>The organisation's name, credentials and provider choices.</p>
      </PageHeader>
      {isAdmin ? (
        <>
          <OrgName />
          <OrgSettings />
        </>
      ) : (
        <Empty>Only admins of the organisation see its settings.</Empty>
      )}
    </>
  );
}
