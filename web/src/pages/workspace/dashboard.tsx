import { PageHeader } from '../../ui/page';

export default function Dashboard() {
  return <PageHeader title="Dashboard" />;
}
