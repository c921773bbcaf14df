import { Link } from 'react-router';
import { $api } from '../api/client';
import { useIsAdmin } from './session';

/**
 * Says, until a model key answers the organisation's questions (its own or the deployment's:
 * `GET /api/org/model`), that questions cannot be answered yet: an admin gets a link to set the
 * key, a member is told to ask an admin. Nothing while it loads, fails or finds a key. Placed by
 * the pages where people start asking (the workspace list, the chat) or set the workspace to answer on its own (routines).
 */
export function ModelKeyNotice() {
  const isAdmin = useIsAdmin();
  const status = $api.useQuery('get', '/api/org/model');
  if (!status.data || status.data.key_set) return null;
  return (
    <section className="model-key-notice" aria-label="No model key">
      <p>
        <strong>No model key is set yet.</strong> Questions cannot be answered until your organisation has one.
      </p>
      {isAdmin ? (
        <p>
          Set the provider and its API key in <Link to="/org/settings">Organisation → Settings</Link>.
        </p>
      ) : (
        <p>Ask an admin of your organisation to set one in Organisation → Settings.</p>
      )}
    </section>
  );
}
