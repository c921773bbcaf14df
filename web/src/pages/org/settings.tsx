import { PageHeader } from '../../ui/page';

export default function OrgSettings() {
  return <PageHeader title="Settings" />;
}
