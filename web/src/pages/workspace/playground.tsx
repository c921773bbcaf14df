import { PageHeader } from '../../ui/page';

export default function Playground() {
  return <PageHeader title="Playground" />;
}
