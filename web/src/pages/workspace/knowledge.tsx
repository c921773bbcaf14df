import { PageHeader } from '../../ui/page';

export default function Knowledge() {
  return <PageHeader title="Knowledge" />;
}
