import { Link } from 'react-router';
import { PageHeader } from '../../ui/page';

/** An address of a workspace that is not there (none of that id in the organisation, or deleted): nothing to retry, a way back. */
export function WorkspaceNotFound() {
  return (
    <>
      <PageHeader title="Workspace not found" />
      <p>
        Your organisation has no workspace at this address: it may have been deleted, or the link is wrong.{' '}
        <Link to="/workspaces">Back to the workspace list</Link>
      </p>
    </>
  );
}
