import { PageHeader } from '../ui/page';

export default function Operations() {
  return <PageHeader title="Operations" />;
}
