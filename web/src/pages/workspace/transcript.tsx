import { PageHeader } from '../../ui/page';

export default function Transcript() {
  return <PageHeader title="Conversation" />;
}
