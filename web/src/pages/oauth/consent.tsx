import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { $api, api, type Schemas, statusOf } from '../../api/client';
import { RequireSession, useUser } from '../../app/session';
import { Badge } from '../../ui/badge';
import { dateTime } from '../../ui/format';
import { PageHeader } from '../../ui/page';
import { ErrorNote, Loading, RowError } from '../../ui/states';

/*
 * The MCP gateway's consent page (`/oauth/consent/:uid`, docs/mcp-gateway.md): an MCP client sent
 * the person's browser to the service's `/oauth/authorize`, which sent it here. Signed out,
 * `RequireSession` sends the person to sign in (password or single sign-on) and back here. The page
 * names the client (verified or self-declared), where it sends the person back and the workspace;
 * Allow or Deny goes to the API, then the browser to the `redirect_to` it answers (the
 * authorization server, which sends it on to the client).
 */

type Request = Schemas['ConsentRequest'];

/** What the client is and what it asks for. */
function RequestFacts({ request }: { request: Request }) {
  const user = useUser();
  const { client, workspace } = request;
  return (
    <dl className="wc-facts">
      <dt>Client</dt>
      <dd>
        <strong>{client.name}</strong>{' '}
        {client.verified ? <Badge status="verified" /> : <span className="badge badge-warn">self-declared name, not verified</span>}
      </dd>
      <dt>After you decide</dt>
      <dd>
        will send you back to <code className="wc-break">{client.redirect_host}</code>
      </dd>
      <dt>Workspace</dt>
      <dd>{workspace.name}</dd>
      <dt>Acts as</dt>
      <dd>
        you, {user.name} ({user.email})
      </dd>
      <dt>Request expires</dt>
      <dd>{dateTime(request.expires_at)}</dd>
    </dl>
  );
}

/** Allow and Deny: the API records the decision and says where the browser goes next. */
function Decide({ uid, request }: { uid: string; request: Request }) {
  const decide = $api.useMutation('post', '/api/oauth/interactions/{uid}', {
    onSuccess: ({ redirect_to }) => {
      window.location.href = redirect_to;
    },
  });
  const going = decide.isPending || decide.isSuccess;
  const send = (decision: 'allow' | 'deny') => decide.mutate({ params: { path: { uid } }, body: { decision } });
  const asked = decide.variables?.body.decision;
  return (
    <>
      <RowError error={decide.error} />
      <div className="actions">
        <button
          type="button"
          className="button"
          disabled={going}
          aria-busy={(going && asked === 'allow') || undefined}
          onClick={() => send('allow')}
        >
          Allow<span className="visually-hidden"> {request.client.name}</span>
        </button>
        <button
          type="button"
          className="button secondary"
          disabled={going}
          aria-busy={(going && asked === 'deny') || undefined}
          onClick={() => send('deny')}
        >
          Deny<span className="visually-hidden"> {request.client.name}</span>
        </button>
      </div>
      <div role="status">{going && <p className="result">Going back to {request.client.redirect_host}…</p>}</div>
    </>
  );
}

/** The request, or why there is none. */
function Consent({ uid }: { uid: string }) {
  const request = $api.useQuery(
    'get',
    '/api/oauth/interactions/{uid}',
    { params: { path: { uid } } },
    { staleTime: Number.POSITIVE_INFINITY },
  );
  if (request.isPending) return <Loading label="Loading the sign-in request" />;
  if (request.isError && statusOf(request.error) === 404) {
    return (
      <>
        <PageHeader title="Sign-in request not found" />
        <p className="card">This sign-in request is unknown or has expired: connect again from your MCP client.</p>
      </>
    );
  }
  if (request.isError) return <ErrorNote error={request.error} retry={() => void request.refetch()} />;
  const { client, workspace } = request.data;
  return (
    <>
      <PageHeader title="Connect an MCP client">
        <p>
          {client.name} asks to use the workspace {workspace.name} as you.
        </p>
      </PageHeader>
      <section className="card" aria-label="What the client asks">
        <RequestFacts request={request.data} />
        <p>
          Allowed, it lists and calls the tools you may use in {workspace.name}, under your permissions: approvals and guardrails apply, and
          every call is in the activity log. You can revoke it at any time under your profile.
        </p>
        {!client.verified && (
          <p>Its name is what the client said about itself. Allow it only if you started this connection from your MCP client just now.</p>
        )}
        <Decide uid={uid} request={request.data} />
      </section>
    </>
  );
}

/** Not you? Sign out and sign in again, coming back to this request. */
function SignOut({ uid }: { uid: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useUser();
  const signOut = useMutation({
    mutationFn: () => api.POST('/api/auth/logout'),
    onSettled: () => {
      queryClient.clear();
      void navigate(`/signin?next=${encodeURIComponent(`/oauth/consent/${uid}`)}`);
    },
  });
  return (
    <p>
      Not {user.name}?{' '}
      <button type="button" className="button secondary small" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
        Sign out
      </button>
    </p>
  );
}

/** `/oauth/consent/:uid`: a page of its own (no console frame), for a signed-in person. */
export default function ConsentPage() {
  const { uid = '' } = useParams();
  return (
    <RequireSession>
      <main id="content" className="auth-page consent-page">
        <Consent uid={uid} />
        <SignOut uid={uid} />
      </main>
    </RequireSession>
  );
}
