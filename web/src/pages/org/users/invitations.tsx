import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { $api, errorText, type Schemas } from '../../../api/client';
import { ConfirmButton } from '../../../ui/confirm';
import { CopyButton } from '../../../ui/copy';
import { Field, FormError, formValues, Submit } from '../../../ui/form';
import { dateTime } from '../../../ui/format';
import { Section } from '../../../ui/page';
import { Loadable } from '../../../ui/states';
import { DataTable } from '../../../ui/table';

/*
 * Invitations by link (admins): a form that makes one and shows its link once, with Copy; the
 * invitations still waiting, each with when it expires and Revoke.
 */

const INVITATIONS = ['get', '/api/org/invitations'] as const;
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
  const queryClient = useQueryClient();
  const invite = $api.useMutation('post', '/api/org/invitations', {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: INVITATIONS }),
  });
  if (invite.data) return <LinkOnce invitation={invite.data.invitation} onDone={onDone} />;
  return (
    <form
      className="card form"
      aria-label="Invite by link"
      noValidate
      onSubmit={(event) => {
        const { email = '', org_role: role = 'member', expires_in_hours: hours = '' } = formValues(event);
        invite.mutate({ body: { email, org_role: role as Role, ...(hours ? { expires_in_hours: Number(hours) } : {}) } });
      }}
    >
      <h2>Invite by link</h2>
      <FormError error={invite.error} />
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
      <div className="actions">
        <Submit pending={invite.isPending} busy="Making the link">
          Make invitation link
        </Submit>
        <button type="button" className="button secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function RevokeInvitation({ invitation }: { invitation: Schemas['Invitation'] }) {
  const queryClient = useQueryClient();
  const revoke = $api.useMutation('delete', '/api/org/invitations/{id}', {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: INVITATIONS }),
  });
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
      {revoke.error && (
        <p className="row-error" role="alert">
          {errorText(revoke.error)}
        </p>
      )}
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
          <DataTable caption="Pending invitations">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Expires</th>
                <th scope="col">Invited by</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {data.invitations.map((invitation) => (
                <tr key={invitation.id}>
                  <th scope="row">{invitation.email}</th>
                  <td>{invitation.org_role}</td>
                  <td>{dateTime(invitation.expires_at)}</td>
                  <td>{invitation.invited_by}</td>
                  <td>
                    <RevokeInvitation invitation={invitation} />
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </Loadable>
    </Section>
  );
}
