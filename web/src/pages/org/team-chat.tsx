import { PageHeader } from '../../ui/page';

export default function TeamChat() {
  return <PageHeader title="Team chat" />;
}
