import { useId } from 'react';
import { $api, type Schemas, useRefresh } from '../../../api/client';
import { ConfirmButton } from '../../../ui/confirm';
import { CopyButton } from '../../../ui/copy';
import { ActionForm, Field } from '../../../ui/form';
import { dateTime } from '../../../ui/format';
import { Section } from '../../../ui/page';
import { Loadable, RowError } from '../../../ui/states';
import { DataTable } from '../../../ui/table';

/*
 * Invitations by link (admins): a form that makes one and shows its link once, with Copy; the
 * invitations still waiting, each with when it expires and Revoke.
 */

type Role = Schemas['OrgRole'];
type Created = Schemas['CreatedInvitation'];

/** The new invitation's link, shown this once: copy it now and send it to the person. */
function LinkOnce({ invitation, onDone }: { invitation: Created; onDone: () => void }) {
  const id = useId();
  return (
    <div className="secret-once" role="status">
      <p>
        <strong>Invitation link for {invitation.email}</strong> — copy it now and send it to them; it works once, until{' '}
        {dateTime(invitation.expires_at)}. It will not be shown again.
      </p>
      <div className="field">
        <label htmlFor={id}>Invitation link</label>
        <input
          id={id}
          readOnly
          value={invitation.url}
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.currentTarget.select()}
        />
      </div>
      <div className="actions">
        <CopyButton value={invitation.url} what="the invitation link" />
        <button type="button" className="button secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

/** The form that makes an invitation; once made, its link instead. */
export function InviteByLink({ onDone }: { onDone: () => void }) {
  const refresh = useRefresh('/api/org/invitations');
  const invite = $api.useMutation('post', '/api/org/invitations', { onSuccess: refresh });
  if (invite.data) return <LinkOnce invitation={invite.data.invitation} onDone={onDone} />;
  return (
    <ActionForm
      className="card form"
      label="Invite by link"
      heading={2}
      error={invite.error}
      onSubmit={({ email = '', org_role: role = 'member', expires_in_hours: hours = '' }) =>
        invite.mutate({ body: { email, org_role: role as Role, ...(hours ? { expires_in_hours: Number(hours) } : {}) } })
      }
      submit="Make invitation link"
      pending={invite.isPending}
      busy="Making the link"
      onCancel={onDone}
    >
      <Field label="Email" name="email" error={invite.error} hint="They join with this address; they choose their name and password.">
        <input type="email" required autoComplete="off" />
      </Field>
      <Field label="Role" name="org_role" error={invite.error}>
        <select defaultValue="member">
          <option value="member">member</option>
          <option value="admin">admin</option>
        </select>
      </Field>
      <Field
        label="Link works for (hours)"
        name="expires_in_hours"
        error={invite.error}
        hint="72 hours unless you say; at most 336 (two weeks)."
      >
        <input type="number" min={1} max={336} step={1} defaultValue={72} inputMode="numeric" />
      </Field>
    </ActionForm>
  );
}

function RevokeInvitation({ invitation }: { invitation: Schemas['Invitation'] }) {
  const refresh = useRefresh('/api/org/invitations');
  const revoke = $api.useMutation('delete', '/api/org/invitations/{id}', { onSuccess: refresh });
  return (
    <>
      <ConfirmButton
        title={`Revoke the invitation of ${invitation.email}?`}
        confirmLabel="Revoke invitation"
        disabled={revoke.isPending}
        description={<p>The link sent to {invitation.email} stops working. You can invite them again later.</p>}
        onConfirm={() => revoke.mutate({ params: { path: { id: invitation.id } } })}
      >
        Revoke<span className="visually-hidden"> the invitation of {invitation.email}</span>
      </ConfirmButton>
      <RowError error={revoke.error} />
    </>
  );
}

/** The invitations still waiting: neither used nor expired. */
export function PendingInvitations() {
  const invitations = $api.useQuery('get', '/api/org/invitations');
  return (
    <Section title="Pending invitations">
      <Loadable
        query={invitations}
        label="pending invitations"
        isEmpty={(data) => data.invitations.length === 0}
        empty="No invitation is waiting. Invite someone by link to add them without setting their password."
      >
        {(data) => (
          <DataTable
            caption="Pending invitations"
            columns={[
              { header: 'Email', cell: (invitation) => invitation.email },
              { header: 'Role', cell: (invitation) => invitation.org_role },
              { header: 'Expires', cell: (invitation) => dateTime(invitation.expires_at) },
              { header: 'Invited by', cell: (invitation) => invitation.invited_by },
              { header: 'Actions', cell: (invitation) => <RevokeInvitation invitation={invitation} /> },
            ]}
            rows={data.invitations}
            rowKey={(invitation) => invitation.id}
          />
        )}
      </Loadable>
    </Section>
  );
}
