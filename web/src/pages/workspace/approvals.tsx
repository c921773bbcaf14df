import { PageHeader } from '../../ui/page';

export default function Approvals() {
  return <PageHeader title="Approvals" />;
}
