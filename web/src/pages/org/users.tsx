import { PageHeader } from '../../ui/page';

export default function Users() {
  return <PageHeader title="Users" />;
}
