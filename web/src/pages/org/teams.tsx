import { PageHeader } from '../../ui/page';

export default function Teams() {
  return <PageHeader title="Teams" />;
}
