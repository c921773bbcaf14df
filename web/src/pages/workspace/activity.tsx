import { PageHeader } from '../../ui/page';

export default function Activity() {
  return <PageHeader title="Activity" />;
}
