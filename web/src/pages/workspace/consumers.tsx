import { PageHeader } from '../../ui/page';

export default function Consumers() {
  return <PageHeader title="Consumers" />;
}
