import { PageHeader } from '../../ui/page';

export default function Guardrails() {
  return <PageHeader title="Guardrails" />;
}
