import { useParams } from 'react-router';
import { $api, type Schemas, useRefresh } from '../../api/client';
import { useUser } from '../../app/session';
import { ConfirmButton } from '../../ui/confirm';
import { dateTime } from '../../ui/format';
import { PageHeader, Section } from '../../ui/page';
import { Loadable, RowError } from '../../ui/states';
import { DataTable } from '../../ui/table';

/*
 * The page the team-chat bot's one-time link opens (docs/team-chat.md, "Who you are in chat"):
 * what confirming links, and the Confirm button; then the chat accounts linked to you, to unlink.
 * Signed out, `RequireSession` sends the person to sign in and back here.
 */

/** The chat account a link request is for, and who it will act as. */
function RequestFacts({ request }: { request: Schemas['ChatLinkRequest'] }) {
  const user = useUser();
  return (
    <dl className="wc-facts">
      <dt>Chat account</dt>
      <dd>
        {request.chat_user_name} <code>{request.chat_user_id}</code>
      </dd>
      <dt>Chat team</dt>
      <dd>
        {request.chat_team_name} <code>{request.chat_team_id}</code>
      </dd>
      <dt>Organisation</dt>
      <dd>{request.org_name}</dd>
      <dt>Will act as</dt>
      <dd>
        you, {user.name} ({user.email}, {user.role})
      </dd>
      <dt>Link works until</dt>
      <dd>{dateTime(request.expires_at)}</dd>
    </dl>
  );
}

function ConfirmLink({ token }: { token: string }) {
  const refresh = useRefresh('/api/chat/links');
  const request = $api.useQuery('get', '/api/chat/link-requests/{token}', { params: { path: { token } } });
  const confirm = $api.useMutation('post', '/api/chat/link-requests/{token}', { onSuccess: refresh });
  if (confirm.data) {
    const { link } = confirm.data;
    return (
      <div className="card" role="status">
        <p>
          Linked: the chat account <strong>{link.chat_user_name}</strong> of <strong>{link.chat_team_name}</strong> now acts as you. Go back
          to the chat and press the button again, or ask again.
        </p>
      </div>
    );
  }
  return (
    <Loadable query={request} label="the link">
      {({ link_request: linkRequest }) => (
        <div className="card">
          <p>
            Confirm only if this chat account is yours. Once linked, its Approve and Deny presses decide as you, and tools that act as each
            person use your access when it asks in chat.
          </p>
          <RequestFacts request={linkRequest} />
          <RowError error={confirm.error} />
          <div className="actions">
            <button
              type="button"
              className="button"
              disabled={confirm.isPending}
              aria-busy={confirm.isPending || undefined}
              onClick={() => confirm.mutate({ params: { path: { token } } })}
            >
              {confirm.isPending ? 'Linking…' : 'Confirm: link this chat account to me'}
            </button>
          </div>
        </div>
      )}
    </Loadable>
  );
}

/** The chat accounts linked to the signed-in user, each with Unlink. */
function MyLinks() {
  const refresh = useRefresh('/api/chat/links');
  const links = $api.useQuery('get', '/api/chat/links');
  const unlink = $api.useMutation('delete', '/api/chat/links/{link_id}', { onSuccess: refresh });
  return (
    <Section title="Chat accounts linked to you">
      <RowError error={unlink.error} />
      <Loadable query={links} label="your chat links" isEmpty={(data) => data.links.length === 0} empty="No chat account is linked to you.">
        {(data) => (
          <DataTable
            caption="Chat accounts linked to you"
            columns={[
              {
                header: 'Chat account',
                cell: (link) => (
                  <>
                    {link.chat_user_name} <code>{link.chat_user_id}</code>
                  </>
                ),
              },
              { header: 'Chat team', cell: (link) => link.chat_team_name },
              { header: 'Linked', cell: (link) => dateTime(link.created_at) },
              {
                header: 'Actions',
                hideHeader: true,
                cell: (link) => (
                  <ConfirmButton
                    title={`Unlink ${link.chat_user_name}?`}
                    description="That chat account no longer acts as you: its presses decide nothing and its questions no longer use your access."
                    onConfirm={() => unlink.mutate({ params: { path: { link_id: link.id } } })}
                    disabled={unlink.isPending}
                  >
                    Unlink<span className="visually-hidden"> {link.chat_user_name}</span>
                  </ConfirmButton>
                ),
              },
            ]}
            rows={data.links}
            rowKey={(link) => link.id}
          />
        )}
      </Loadable>
    </Section>
  );
}

/** `/chat/link/:token`: link the chat account the bot sent this link to. */
export default function ChatLinkPage() {
  const { token = '' } = useParams();
  return (
    <>
      <PageHeader title="Link your chat account">
        <p>The team-chat bot sent this link to one chat account, to work once.</p>
      </PageHeader>
      <ConfirmLink token={token} />
      <MyLinks />
    </>
  );
}
