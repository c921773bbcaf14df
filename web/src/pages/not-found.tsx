import { Link } from 'react-router';
import { PageHeader } from '../ui/page';

export function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is nothing at this address. <Link to="/workspaces">Go to your workspaces</Link>.
      </p>
    </>
  );
}
