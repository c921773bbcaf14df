import { useRef, useState } from 'react';
import { $api, type Schemas } from '../../../api/client';
import { Field, FormError, formValues, Submit } from '../../../ui/form';

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
        <form
          noValidate
          onSubmit={(event) => {
            const form = event.currentTarget;
            const { password = '' } = formValues(event);
            set.mutate({ params: { path: { id: user.id } }, body: { password } }, { onSuccess: () => form.reset() });
          }}
        >
          <h2>{title}</h2>
          <p>
            {user.name} ({user.email}) is signed out everywhere and signs in with this password from now on.
          </p>
          <FormError error={set.error} />
          <Field label="New password" name="password" error={set.error} hint="At least 8 characters; tell it to them yourself.">
            <input type="password" autoComplete="new-password" required minLength={8} />
          </Field>
          <div className="actions">
            <button type="button" className="button secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <Submit pending={set.isPending} busy="Setting">
              Set password
            </Submit>
          </div>
        </form>
      </dialog>
    </>
  );
}
