import { PageHeader } from '../../ui/page';

export default function Permissions() {
  return <PageHeader title="Permissions" />;
}
