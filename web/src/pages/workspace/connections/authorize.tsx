import { $api } from '../../../api/client';
import { useIsAdmin } from '../../../app/session';
import { RowError } from '../../../ui/states';
import { type Connection, grantOf } from './shared';

/**
 * Starts an OAuth grant and sends the browser to the provider; its callback page, on the service,
 * says whether it worked. Admins grant a connection's own access; anyone their own of a per-user one.
 */
export function AuthorizeButton({ connection }: { connection: Connection }) {
  const isAdmin = useIsAdmin();
  const grant = grantOf(connection, isAdmin);
  const authorize = $api.useMutation('post', '/api/connections/{id}/authorize', {
    onSuccess: (data) => window.location.assign(data.authorization_url),
  });
  if (!grant) return null;
  const label = grant === 'own' ? 'Authorize my access' : 'Authorize';
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={authorize.isPending || authorize.isSuccess}
        aria-busy={authorize.isPending || undefined}
        onClick={() => authorize.mutate({ params: { path: { id: connection.id } } })}
      >
        {authorize.isPending || authorize.isSuccess ? 'Opening the provider…' : label}
        <span className="visually-hidden">
          {grant === 'own' ? ' to ' : ' '}
          {connection.name}
        </span>
      </button>
      <RowError error={authorize.error} />
    </>
  );
}
