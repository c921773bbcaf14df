import { PageHeader } from '../../ui/page';

export default function Overview() {
  return <PageHeader title="Overview" />;
}
