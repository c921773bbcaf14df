import { PageHeader } from '../../ui/page';

export default function Settings() {
  return <PageHeader title="Settings" />;
}
