import { PageHeader } from '../../ui/page';

export default function Connections() {
  return <PageHeader title="Connections" />;
}
