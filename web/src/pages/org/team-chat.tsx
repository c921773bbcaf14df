import { Link } from 'react-router';
import { $api, type Schemas } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { Badge } from '../../ui/badge';
import { ActionForm, Field } from '../../ui/form';
import { PageHeader, Section } from '../../ui/page';
import { Empty, Loadable } from '../../ui/states';
import { DataTable } from '../../ui/table';

/** The settings that hold the bot's tokens (docs/team-chat.md, "Connect it"). */
const TOKENS = [
  { key: 'chat_bot_token', name: 'Bot token', hint: 'starts with xoxb-, on the app’s OAuth page' },
  { key: 'chat_app_token', name: 'App token', hint: 'starts with xapp-, an app-level token with connections:write for socket mode' },
];

/** Whether each token is stored, with a link to set or change it on the Settings tab. */
function StoredTokens() {
  const settings = $api.useQuery('get', '/api/org/settings');
  return (
    <Section title="The bot's tokens">
      <p>
        The bot connects with two organisation settings. Set them on the <Link to="/org/settings">Settings tab</Link>; the bot connects
        within seconds of both being set, reconnects when one changes, and disconnects when one is removed.
      </p>
      <Loadable query={settings} label="the token settings">
        {(data) => (
          <DataTable
            caption="Team-chat token settings"
            columns={[
              {
                header: 'Token',
                cell: (token) => (
                  <>
                    {token.name}
                    <div className="row-meta">{token.hint}</div>
                  </>
                ),
              },
              {
                header: 'Setting',
                cell: (token) => (
                  <Link to={`/org/settings?key=${token.key}`} aria-label={`Set ${token.key} on the Settings tab`}>
                    <code>{token.key}</code>
                  </Link>
                ),
              },
              { header: 'Stored', cell: (token) => <Badge status={data.configured[token.key] ? 'set' : 'not_set'} /> },
              { header: 'Value', cell: (token) => (data.settings[token.key] ? <code>{data.settings[token.key]}</code> : '—') },
            ]}
            rows={TOKENS}
            rowKey={(token) => token.key}
          />
        )}
      </Loadable>
    </Section>
  );
}

function TestResult({ result }: { result: Schemas['IntegrationTestResponse'] }) {
  if (result.ok)
    return (
      <div className="result">
        <p>
          The token works: it is the bot <strong>{result.detail?.bot_name ?? '(unnamed)'}</strong> of the team{' '}
          <strong>{result.detail?.team ?? '(unnamed)'}</strong>.
        </p>
      </div>
    );
  return (
    <div className="result result-bad">
      <p>The token was refused: {result.error ?? 'no reason given'}.</p>
    </div>
  );
}

/** Checks a bot token with the platform (auth.test) without storing it. */
function TestToken() {
  const test = $api.useMutation('post', '/api/org/integrations/test');
  return (
    <Section title="Test a bot token">
      <ActionForm
        intro={<p className="hint">The token is sent to the chat platform to check it, and not stored.</p>}
        error={test.error}
        // A checked token does not stay in the page.
        onSubmit={({ 'credentials.bot_token': botToken = '' }, form) =>
          test.mutate({ body: { type: 'team-chat', credentials: { bot_token: botToken } } }, { onSuccess: () => form.reset() })
        }
        submit="Test token"
        pending={test.isPending}
        busy="Testing"
        footer={<div role="status">{test.data && !test.isPending && <TestResult result={test.data} />}</div>}
      >
        <Field label="Bot token" name="credentials.bot_token" error={test.error} hint="xoxb-…">
          <input type="password" autoComplete="off" required />
        </Field>
      </ActionForm>
    </Section>
  );
}

/** The team-chat integration: the bot's stored tokens, and a check of a bot token. */
export default function TeamChat() {
  const isAdmin = useIsAdmin();
  return (
    <>
      <PageHeader title="Team chat">
        <p>One bot per organisation answers in the threads of channels bound to a workspace (docs/team-chat.md).</p>
      </PageHeader>
      {isAdmin ? (
        <>
          <TestToken />
          <StoredTokens />
        </>
      ) : (
        <Empty>Only admins of the organisation manage the team-chat integration.</Empty>
      )}
    </>
  );
}
