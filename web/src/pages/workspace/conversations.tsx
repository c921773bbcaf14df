import { PageHeader } from '../../ui/page';

export default function Conversations() {
  return <PageHeader title="Conversations" />;
}
