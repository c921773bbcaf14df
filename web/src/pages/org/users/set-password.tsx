import { useRef, useState } from 'react';
import { $api, type Schemas } from '../../../api/client';
import { ActionForm, Field } from '../../../ui/form';

/** An admin sets another user's password, in a modal dialog: their sessions end, the admin tells them the new one. */
export function SetPassword({ user }: { user: Schemas['User'] }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [done, setDone] = useState('');
  const set = $api.useMutation('put', '/api/org/users/{id}/password', {
    onSuccess: () => {
      dialog.current?.close();
      setDone(`Password of ${user.name} set: their sessions ended; tell them the new one.`);
    },
  });
  const title = `Set the password of ${user.name}`;
  return (
    <>
      <button
        type="button"
        className="button small secondary"
        onClick={() => {
          set.reset();
          setDone('');
          dialog.current?.showModal();
        }}
      >
        Set password<span className="visually-hidden"> of {user.name}</span>
      </button>
      <span role="status">{done && <span className="hint">{done}</span>}</span>
      <dialog ref={dialog} className="dialog" aria-label={title}>
        <ActionForm
          className=""
          heading={2}
          title={title}
          intro={
            <p>
              {user.name} ({user.email}) is signed out everywhere and signs in with this password from now on.
            </p>
          }
          error={set.error}
          onSubmit={({ password = '' }, form) =>
            set.mutate({ params: { path: { id: user.id } }, body: { password } }, { onSuccess: () => form.reset() })
          }
          // A dialog's Cancel comes first, as in every confirmation.
          actionsBefore={
            <button type="button" className="button secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          }
          submit="Set password"
          pending={set.isPending}
          busy="Setting"
        >
          <Field label="New password" name="password" error={set.error} hint="At least 8 characters; tell it to them yourself.">
            <input type="password" autoComplete="new-password" required minLength={8} />
          </Field>
        </ActionForm>
      </dialog>
    </>
  );
}
