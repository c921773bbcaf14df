import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { $api, type Schemas } from '../../../api/client';
import { ActionForm, Field } from '../../../ui/form';
import { ErrorNote, Loading } from '../../../ui/states';
import { EnvFields, envOf, type HeaderRow, HeaderRows, headersOf } from './credential-fields';
import { type CatalogueEntry, useRefreshConnections } from './shared';
import { TestResult } from './test-result';

interface Draft {
  name: string;
  transport: 'http' | 'stdio';
  url: string;
  auth: 'none' | 'oauth';
  credential: 'workspace' | 'per_user';
  clientId: string;
  clientSecret: string;
  server: string;
  env: Record<string, string>;
  headers: HeaderRow[];
}

const EMPTY: Draft = {
  name: '',
  transport: 'http',
  url: '',
  auth: 'none',
  credential: 'workspace',
  clientId: '',
  clientSecret: '',
  server: '',
  env: {},
  headers: [],
};

/** What reaching the server takes: the test's body, and the heart of the save's. */
function targetOf(draft: Draft, entry: CatalogueEntry | undefined): Schemas['TestMcpRequest'] {
  if (draft.transport === 'stdio') {
    const env = envOf(entry?.env ?? [], draft.env);
    return { transport: 'stdio', command: entry?.command ?? '', args: entry?.args ?? [], ...(Object.keys(env).length ? { env } : {}) };
  }
  const headers = headersOf(draft.headers);
  return { transport: 'http', url: draft.url.trim(), ...(Object.keys(headers).length ? { headers } : {}) };
}

function saveBodyOf(workspaceId: string, draft: Draft, entry: CatalogueEntry | undefined): Schemas['CreateMcpConnectionRequest'] {
  const body: Schemas['CreateMcpConnectionRequest'] = { workspace_id: workspaceId, name: draft.name.trim(), ...targetOf(draft, entry) };
  if (draft.transport !== 'http' || draft.auth !== 'oauth') return body;
  return {
    ...body,
    auth: 'oauth',
    credential: draft.credential,
    ...(draft.clientId.trim() ? { oauth_client_id: draft.clientId.trim() } : {}),
    ...(draft.clientSecret ? { oauth_client_secret: draft.clientSecret } : {}),
  };
}

/** The form's own message when no stdio server is chosen, shaped as the API's (under the Server field). */
const NO_SERVER = { error: 'Choose a server.', details: [{ path: 'command', message: 'Choose a server.' }] };

export type Saved = Schemas['CreateMcpConnectionResponse'] & { name: string };

function OAuthFields({ draft, set, error }: { draft: Draft; set: (change: Partial<Draft>) => void; error: unknown }) {
  return (
    <>
      <Field label="Authentication" name="auth" error={error} hint="OAuth: the server asks someone to sign in at its provider.">
        <select value={draft.auth} onChange={(event) => set({ auth: event.target.value as Draft['auth'] })}>
          <option value="none">None, or headers below</option>
          <option value="oauth">OAuth 2.1</option>
        </select>
      </Field>
      {draft.auth === 'oauth' && (
        <>
          <Field label="Whose access" name="credential" error={error}>
            <select value={draft.credential} onChange={(event) => set({ credential: event.target.value as Draft['credential'] })}>
              <option value="workspace">One grant by an admin, used for everyone</option>
              <option value="per_user">Each person grants their own</option>
            </select>
          </Field>
          <Field label="OAuth client ID" name="oauth_client_id" error={error} hint="Optional: without one, the service registers itself.">
            <input value={draft.clientId} autoComplete="off" onChange={(event) => set({ clientId: event.target.value })} />
          </Field>
          <Field label="OAuth client secret" name="oauth_client_secret" error={error} hint="Optional.">
            <input
              type="password"
              value={draft.clientSecret}
              autoComplete="off"
              onChange={(event) => set({ clientSecret: event.target.value })}
            />
          </Field>
        </>
      )}
    </>
  );
}

function StdioFields({
  draft,
  set,
  catalogue,
  error,
}: {
  draft: Draft;
  set: (change: Partial<Draft>) => void;
  catalogue: CatalogueEntry[];
  error: unknown;
}) {
  const entry = catalogue.find((server) => server.name === draft.server);
  return (
    <>
      <Field
        label="Server"
        name="command"
        error={error}
        hint={catalogue.length ? 'The stdio servers the operator allows (MCP_STDIO_SERVERS).' : 'The operator allows no stdio servers.'}
      >
        <select
          value={draft.server}
          onChange={(event) => {
            const server = event.target.value;
            // The server's name is the connection's until someone names it otherwise.
            const named = draft.name !== '' && draft.name !== draft.server;
            set({ server, env: {}, ...(named ? {} : { name: server }) });
          }}
        >
          <option value="">Choose a server</option>
          {catalogue.map((server) => (
            <option key={server.name} value={server.name}>
              {server.name} ({[server.command, ...server.args].join(' ')})
            </option>
          ))}
        </select>
      </Field>
      {entry && <EnvFields names={entry.env} values={draft.env} onChange={(env) => set({ env })} error={error} />}
    </>
  );
}

/** Where the server is: a URL (with OAuth or headers), or a catalogue entry (with its variables). */
function TargetFields({
  draft,
  set,
  catalogue,
  error,
}: {
  draft: Draft;
  set: (change: Partial<Draft>) => void;
  catalogue: UseQueryResult<Schemas['StdioCatalogueResponse'], unknown>;
  error: unknown;
}) {
  const servers = catalogue.data?.servers ?? [];
  return draft.transport === 'http' ? (
    <>
      <Field label="URL" name="url" error={error}>
        <input
          type="url"
          value={draft.url}
          placeholder="https://tools.example.com/mcp"
          onChange={(event) => set({ url: event.target.value })}
        />
      </Field>
      <OAuthFields draft={draft} set={set} error={error} />
      <HeaderRows
        rows={draft.headers}
        onChange={(headers) => set({ headers })}
        error={error}
        hint="Sent with every request, e.g. an API key. Secrets: stored encrypted and never shown again."
      />
    </>
  ) : catalogue.isPending ? (
    <Loading label="Loading the stdio servers" />
  ) : catalogue.isError ? (
    <ErrorNote error={catalogue.error} retry={() => void catalogue.refetch()} />
  ) : (
    <StdioFields draft={draft} set={set} catalogue={servers} error={error} />
  );
}

/** The admin's form: an http server by URL or a stdio server from the catalogue, tried before it is saved. */
export function AddConnection({ workspaceId, onDone }: { workspaceId: string; onDone: (saved?: Saved) => void }) {
  const refresh = useRefreshConnections();
  const catalogue = $api.useQuery('get', '/api/connectors/mcp/catalogue');
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const test = $api.useMutation('post', '/api/connectors/mcp/test');
  const save = $api.useMutation('post', '/api/connectors/mcp', {
    onSuccess: async (saved) => {
      await refresh();
      const name = draft.name.trim();
      // The API's message names a field (authorization_url); the console says it in words.
      const message = saved.authorization_url ? `Saved "${name}": grant access to list its tools.` : saved.message;
      onDone({ ...saved, message, name });
    },
  });
  const servers = catalogue.data?.servers ?? [];
  const entry = servers.find((server) => server.name === draft.server);
  // Said here, in words, before asking the API: a stdio connection is one of the catalogue's servers.
  const [unchosen, setUnchosen] = useState<typeof NO_SERVER>();
  const chosen = () => {
    const missing = draft.transport === 'stdio' && !entry;
    setUnchosen(missing ? NO_SERVER : undefined);
    return !missing;
  };
  // A result is about the values it was given: any change makes it stale.
  const set = (change: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...change }));
    setUnchosen(undefined);
    test.reset();
  };
  const error = unchosen ?? save.error ?? test.error;
  return (
    <ActionForm
      className="card form wc-add"
      label="Add a connection"
      heading={2}
      error={error}
      onSubmit={() => {
        test.reset();
        if (chosen()) save.mutate({ body: saveBodyOf(workspaceId, draft, entry) });
      }}
      actionsBefore={
        <button
          type="button"
          className="button secondary"
          disabled={test.isPending}
          aria-busy={test.isPending || undefined}
          onClick={() => {
            save.reset();
            if (chosen()) test.mutate({ body: targetOf(draft, entry) });
          }}
        >
          {test.isPending ? 'Testing…' : 'Test connection'}
        </button>
      }
      submit="Save connection"
      pending={save.isPending}
      onCancel={() => onDone()}
    >
      <Field label="Name" name="name" error={error} hint="How the agent and the activity log name it.">
        <input value={draft.name} onChange={(event) => set({ name: event.target.value })} />
      </Field>
      <Field label="Transport" name="transport" error={error}>
        <select value={draft.transport} onChange={(event) => set({ transport: event.target.value as Draft['transport'] })}>
          <option value="http">HTTP: a server at a URL</option>
          <option value="stdio">stdio: a server the service runs</option>
        </select>
      </Field>
      <TargetFields draft={draft} set={set} catalogue={catalogue} error={error} />
      <TestResult pending={test.isPending} result={test.data} />
    </ActionForm>
  );
}
